--TEST--
MOD9 DOCS of one long list (the device's tiled decoder) against the host and the reference decoder: valid postings, random words, bit flips, and postings whose first word holds no value
--EXTENSIONS--
gpupost
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
mt_srand(55);
$docs_of = fn(string $b) => fn() => gpu_decode_postings($b, GPUPOST_MOD9, GPUPOST_DOCS);
$bad = $checked = $rejected = 0;
/* about 100k words: dozens of tiles, combined-form docs among them */
$postings = rand_mod9_postings(30000);
$blob = gpu_encode_postings($postings, GPUPOST_MOD9, GPUPOST_POSTINGS);
$want = array_column(ref_mod9_postings($blob), 0);
$host = gp_on('host', $docs_of($blob));
$dev = gp_on('device', $docs_of($blob));
if ($host !== $want || $dev !== $want) { echo "valid postings differ\n"; $bad++; }
printf("%d words, %d postings\n", strlen($blob) / 4, count($dev));
$cases = ['postings' => $blob];
for ($s = 0; $s < 4; $s++) {   /* arbitrary selectors and data: empty slots, first values of 0 */
    $cases["words $s"] = rand_mod9_words(mt_rand(20000, 60000));
}
foreach ($cases as $name => $b0) {
    for ($m = 0; $m < 25; $m++) {
        $b = $b0;
        if ($m > 0) {   /* one bit flipped, or a whole word overwritten */
            $at = mt_rand(0, strlen($b) - 1);
            if ($m % 4 === 3) {
                $b = substr_replace($b, pack('N', mt_rand(0, 0x7FFFFFFF) * 2 + mt_rand(0, 1)), $at & ~3, 4);
            } else {
                $b[$at] = chr(ord($b[$at]) ^ (1 << mt_rand(0, 7)));
            }
        }
        [[$hv, $h], [$dv, $d]] = gp_outcomes($docs_of($b));
        $checked++;
        $rejected += $h !== 'no exception';
        if ($h !== $d || $hv !== $dv) { echo "$name, change $m: host '$h', device '$d'\n"; $bad++; }
        if ($hv !== null && $hv !== array_column(ref_mod9_postings($b), 0)) { echo "$name, change $m: host differs from the reference\n"; $bad++; }
    }
}
echo "checked: $checked, mismatches: $bad\n";
var_dump($rejected > 10 && $rejected < $checked - 10);

/* A posting whose first word has no value (flags 11, 24 x 1 bits, all 0): its doc is the first
 * value of its next word; placed after 3000 single-word postings so that it sits in a later
 * tile. Then the same with no value in the posting at all: malformed. */
$head = pack('N', 0xFF000000);   /* flags 11, selector 111111, data 0 */
$filler = str_repeat(pack('N', 0x3c000c5f), 3000);   /* doc 5, positions 1, 4, 11 */
$ok = $filler . $head . pack('N', 0x40000000 | 42) . $filler;   /* flags 01, selector 00: 42 */
$want = array_merge(array_fill(0, 3000, 5), [41], array_fill(0, 3000, 5));
var_dump(gp_on('host', $docs_of($ok)) === $want, gp_on('device', $docs_of($ok)) === $want);
$empty = $filler . $head . pack('N', 0x7F000000) . $filler;   /* flags 01, 24 x 1 bits, all 0 */
echo gp_error_of(fn() => gp_on('host', $docs_of($empty))), "\n";
echo gp_error_of(fn() => gp_on('device', $docs_of($empty))), "\n";
?>
--EXPECTF--
%d words, 30000 postings
checked: 125, mismatches: 0
bool(true)
bool(true)
bool(true)
GpuPost\Exception: %s12000%s
GpuPost\Exception: %s12000%s
