--TEST--
MOD9 POSTINGS on the device's tiled decoder (running positions carried across tiles) against the host and the reference decoder: many postings, postings longer than several tiles with positions past 2^32, empty words before a posting's first value, random words and damaged blobs, batches with empty blobs; without a device each check runs once, on the host
--EXTENSIONS--
gpupost
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
mt_srand(58);
$post = fn(string $b) => fn() => gpu_decode_postings($b, GPUPOST_MOD9, GPUPOST_POSTINGS);
$ref = fn(string $b) => ref_as_postings_array(ref_mod9_postings($b));
$bad = 0;
function same_everywhere(string $name, string $b, callable $post, callable $ref, int &$bad): void
{
    [[$h], [$d]] = gp_outcomes($post($b));
    if ($h !== $ref($b) || $d !== $h) { echo "$name differs\n"; $bad++; }
}

/* 1. about 100k words of ordinary postings: dozens of tiles */
$blob = gpu_encode_postings(rand_mod9_postings(30000), GPUPOST_MOD9, GPUPOST_POSTINGS);
same_everywhere('many postings', $blob, $post, $ref, $bad);
printf("%d words\n", strlen($blob) / 4);

/* 2. postings of 60,000 small gaps (12 a word: 5,000 words) and of 20,000 gaps up to 2^20 (one
 * a word: 20,000 words, positions past 2^32) between short ones: each spans tiles */
$long = [];
$doc = 1000;
foreach ([60000 => 3, 5 => 600, 20000 => 1 << 20, 3 => 9, 7000 => 100] as $n => $gmax) {
    for ($r = 0; $r < 3; $r++) {
        $doc += mt_rand(1, 40000);
        $p = 0;
        $pos = [];
        for ($k = 0; $k < $n; $k++) { $p += mt_rand(1, $gmax); $pos[] = $p; }
        $long[$doc] = $pos;
    }
}
$lblob = gpu_encode_postings($long, GPUPOST_MOD9, GPUPOST_POSTINGS);
[[$h], [$d]] = gp_outcomes($post($lblob));
var_dump($d === $long, $d === $h, max(array_map('max', $d)) > 1 << 32);

/* 2b. 240 postings of 2,500 gaps of 20 bits (one a word: 600,000 words, more tiles than the
 * carry's work-group has items, so that each item carries over several tiles) */
$many = [];
for ($i = 0; $i < 240; $i++) {
    $p = 0;
    $pos = [];
    for ($k = 0; $k < 2500; $k++) { $p += mt_rand(1 << 19, 1 << 20); $pos[] = $p; }
    $many[1000 + 7 * $i] = $pos;
}
$mblob = gpu_encode_postings($many, GPUPOST_MOD9, GPUPOST_POSTINGS);
[[$h], [$d]] = gp_outcomes($post($mblob));
var_dump(strlen($mblob) / 4, $d === $many, $d === $h);
unset($many, $d, $h, $mblob);

/* 2c. one tile (the call whose outputs come back in one region): a posting of 40 gaps near 2^28
 * (one a word: positions past 2^32, so the pass runs again 64-bit) between short ones */
$p = 0;
$pos = [];
for ($k = 0; $k < 40; $k++) { $p += mt_rand(1 << 27, (1 << 28) - 1); $pos[] = $p; }
$wide = [7 => [3, 9], 8 => $pos, 20 => [5]];
$wblob = gpu_encode_postings($wide, GPUPOST_MOD9, GPUPOST_POSTINGS);
[[$h], [$d]] = gp_outcomes($post($wblob));
var_dump(strlen($wblob) / 4 < 100, $d === $wide, $d === $h, max($d[8]) > 1 << 32);

/* 3. a posting whose first word and next 3000 words hold no value (flags 11, then 10; 24 x 1
 * bits, all 0): its doc and positions are in the word after them, 3000 postings in */
$filler = str_repeat(pack('N', 0x3c000c5f), 3000);   /* doc 5, positions 1, 4, 11 */
$last = 0x40000000 | (32 << 24) | (43 << 18) | (5 << 9) | 7;   /* flags 01, 3 x 9 bits: 43 5 7 */
$empty_head = $filler . pack('N', 0xFF000000) . str_repeat(pack('N', 0xBF000000), 3000) . pack('N', $last) . $filler;
same_everywhere('empty words first', $empty_head, $post, $ref, $bad);
var_dump(gp_on('device', $post($empty_head))[42]);

/* 4. random words (empty slots, first values of 0) and damaged postings: the same result or the
 * same exception on both paths, and the reference's result */
$checked = $rejected = 0;
$cases = ['postings' => $blob, 'long' => substr($lblob, 0, 80000)];
for ($s = 0; $s < 2; $s++) $cases["words $s"] = rand_mod9_words(mt_rand(20000, 40000));
foreach ($cases as $name => $b0) {
    for ($m = 0; $m < 16; $m++) {
        $b = $b0;
        if ($m > 0) {
            $at = mt_rand(0, strlen($b) - 1);
            if ($m % 4 === 3) {
                $b = substr_replace($b, pack('N', mt_rand(0, 0x7FFFFFFF) * 2 + mt_rand(0, 1)), $at & ~3, 4);
            } else {
                $b[$at] = chr(ord($b[$at]) ^ (1 << mt_rand(0, 7)));
            }
        }
        [[$hv, $h], [$dvv, $dv]] = gp_outcomes($post($b));
        $checked++;
        $rejected += $h !== 'no exception';
        if ($h !== $dv) { echo "$name, change $m: host '$h', device '$dv'\n"; $bad++; continue; }
        if ($h === 'no exception' && ($dvv !== ($want_b = $ref($b)) || $hv !== $want_b)) {
            echo "$name, change $m: differs from the reference\n";
            $bad++;
        }
    }
}
var_dump($rejected > 5 && $rejected < $checked - 5);

/* 5. batches: hundreds of blobs back to back, empty ones first, between and last, the long
 * blob among them; equal to single calls on the host; a damaged blob named by its key */
$blobs = ['e0' => ''];
for ($i = 0; $i < 400; $i++) {
    $blobs["b$i"] = $i % 97 === 5 ? '' : gpu_encode_postings(rand_mod9_postings(mt_rand(1, 60)), GPUPOST_MOD9, GPUPOST_POSTINGS);
    if ($i === 200) $blobs['long'] = $lblob;
    if ($i === 300) $blobs['empty head'] = $empty_head;
}
$blobs['e1'] = '';
$want = [];
foreach ($blobs as $k => $b) $want[$k] = gp_on('host', $post($b));
$batch = fn(array $bs) => fn() => gpu_decode_postings_batch($bs, GPUPOST_MOD9, GPUPOST_POSTINGS);
[[$h], [$d]] = gp_outcomes($batch($blobs));
var_dump($d === $want, $h === $want);
$blobs['b123'] = substr($blobs['b123'], 0, -4) . pack('N', 0xC0000005);   /* leaves a posting open */
echo gp_error_of(fn() => gp_on('host', $batch($blobs))), "\n";
echo gp_error_of(fn() => gp_on('device', $batch($blobs))), "\n";
echo "checked: $checked, mismatches: $bad\n";
?>
--EXPECTF--
%d words
bool(true)
bool(true)
bool(true)
int(%d)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
array(2) {
  [0]=>
  int(5)
  [1]=>
  int(12)
}
bool(true)
bool(true)
bool(true)
GpuPost\Exception: %sb123%s
GpuPost\Exception: %sb123%s
checked: 64, mismatches: 0
