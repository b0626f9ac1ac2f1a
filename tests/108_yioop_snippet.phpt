--TEST--
gpu_yioop_snippet: Yioop's Model::getSnippets without its regular expressions, equal to what Yioop's own code returned (scripts/yioop-search-testdata.php) for 6,000 texts, words and lengths: paragraphs alone and joined as getCrawlItems joins descriptions, text of other scripts, combining marks, the letters Unicode folds to ASCII ones, private use, no words, words in no text; text that is not valid UTF-8, or holds line breaks, is left to Yioop (null)
--EXTENSIONS--
gpupost
zlib
--FILE--
<?php
$data = json_decode(gzdecode(file_get_contents(__DIR__ . '/data/yioop/snippets.json.gz')), true, 512, JSON_THROW_ON_ERROR);
$equal = $differ = $left = $multi = $nonascii = 0;
foreach ($data['cases'] as [$t, $words, $length, $want]) {
    $text = $data['texts'][$t];
    $got = gpu_yioop_snippet($text, $words, $length);
    if ($got === null) { $left++; continue; }
    if ($got === $want) {
        $equal++;
        $multi += str_contains($got, ' ... ');
        $nonascii += preg_match('/[^\x00-\x7f]/', $got);
    } elseif (++$differ <= 3) {
        echo "differs: ", json_encode([$t, $words, $length]), "\n  Yioop:    $want\n  gpupost:  $got\n";
    }
}
printf("%d snippets: %d equal (%d of several pieces, %d not ASCII), %d left to Yioop\n", count($data['cases']), $equal, $multi, $nonascii, $left);
var_dump($differ, $left, $equal > 5000, $multi > 1000, $nonascii > 500);

/* left to Yioop: not UTF-8, line breaks (PCRE's newline convention), words not printable ASCII */
$long = str_repeat('free software for everyone ', 10);
var_dump(gpu_yioop_snippet("$long\xff", ['free'], 150), gpu_yioop_snippet("$long\n", ['free'], 150),
         gpu_yioop_snippet($long, ["caf\u{e9}"], 150), gpu_yioop_snippet($long, ['  '], 150));
/* short valid text: itself */
var_dump(gpu_yioop_snippet('short', ['x'], 150));
/* many pieces, repeated (Yioop's array_unique): found by review to take quadratic time */
$pieces = implode('.. ', array_map(fn($i) => sprintf('%06d', $i % 30000), range(1, 60000)));
var_dump(gpu_yioop_snippet($pieces . '.. the fox jumps over the lazy dog every day of the week', ['fox'], 150));
/* the text's working memory counts against gpupost.max_result_bytes */
ini_set('gpupost.max_result_bytes', '16M');
try { gpu_yioop_snippet(str_repeat('abcdefghij ', 200000), ['fox'], 150); echo "accepted\n"; }
catch (GpuPost\Exception $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
ini_restore('gpupost.max_result_bytes');
try { gpu_yioop_snippet('x', [1], 10); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
try { gpu_yioop_snippet('x', ['x'], -1); } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECTF--
%d snippets: %d equal (%d of several pieces, %d not ASCII), 0 left to Yioop
int(0)
int(0)
bool(true)
bool(true)
bool(true)
NULL
NULL
NULL
NULL
string(5) "short"
string(53) "the fox jumps over the lazy dog every day of the week"
GpuPost\Exception: a snippet's text would need %d bytes, more than gpupost.max_result_bytes (16777216)
gpu_yioop_snippet(): Argument #2 ($words) must hold strings, int given
gpu_yioop_snippet(): Argument #3 ($length) must be at least 0
