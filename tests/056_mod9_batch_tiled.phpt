--TEST--
MOD9 batches in VALUES and DOCS mode (the device's tiled decoder over the blobs back to back): hundreds of blobs across many tiles, empty blobs first, between and last, equal to single calls on the host; damaged blobs give the host's exception, blob key included
--EXTENSIONS--
gpupost
--INI--
memory_limit=512M
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
mt_srand(56);
$blobs = ['' ];   /* key 0: empty, first */
for ($i = 1; $i < 400; $i++) {
    $r = mt_rand(0, 9);
    $blobs["k$i"] = $r === 0 ? '' : ($r < 5
        ? gpu_encode_postings(rand_mod9_values(mt_rand(1, 3000)))
        : gpu_encode_postings(rand_mod9_postings(mt_rand(1, 300)), GPUPOST_MOD9, GPUPOST_POSTINGS));
}
$blobs['last'] = '';
$words = array_sum(array_map('strlen', $blobs)) / 4;
$bad = $checked = $rejected = 0;
foreach ([GPUPOST_VALUES => 'VALUES', GPUPOST_DOCS => 'DOCS'] as $mode => $mname) {
    $want = [];
    foreach ($blobs as $k => $b) $want[$k] = gp_on('host', fn() => gpu_decode_postings($b, GPUPOST_MOD9, $mode));
    $host = gp_on('host', fn() => gpu_decode_postings_batch($blobs, GPUPOST_MOD9, $mode));
    $dev = gp_on('device', fn() => gpu_decode_postings_batch($blobs, GPUPOST_MOD9, $mode));
    if ($host !== $want || $dev !== $want) { echo "$mname: valid batch differs\n"; $bad++; }
    /* one blob damaged: a bit flipped or a word overwritten, anywhere in it */
    for ($m = 0; $m < 30; $m++) {
        $b = $blobs;
        do { $k = array_rand($b); } while ($b[$k] === '');
        $at = mt_rand(0, strlen($b[$k]) - 1);
        if ($m % 3 === 2) {
            $b[$k] = substr_replace($b[$k], pack('N', mt_rand(0, 0x7FFFFFFF) * 2 + mt_rand(0, 1)), $at & ~3, 4);
        } else {
            $b[$k][$at] = chr(ord($b[$k][$at]) ^ (1 << mt_rand(0, 7)));
        }
        [[$hv, $h], [$dv, $d]] = gp_outcomes(fn() => gpu_decode_postings_batch($b, GPUPOST_MOD9, $mode));
        $checked++;
        $rejected += $h !== 'no exception';
        if ($h !== $d || $hv !== $dv) { echo "$mname, blob $k changed at $at: host '$h', device '$d'\n"; $bad++; }
    }
}
/* a blob that ends inside a posting, before one that begins with a posting's last word: back to
 * back they would read as one posting; as blobs both are malformed, the first named */
$cut = ['a' => gpu_encode_postings([5 => [1, 2]], GPUPOST_MOD9, GPUPOST_POSTINGS),
        'b' => pack('N', 0xC0008000), 'c' => pack('N', 0x78000007)];
echo gp_error_of(fn() => gp_on('host', fn() => gpu_decode_postings_batch($cut))), "\n";
echo gp_error_of(fn() => gp_on('device', fn() => gpu_decode_postings_batch($cut))), "\n";
/* and before a blob that begins well: only the blob boundary shows that 'b' is cut short */
$cut['c'] = pack('N', 0x3f000001);
echo gp_error_of(fn() => gp_on('host', fn() => gpu_decode_postings_batch($cut, GPUPOST_MOD9, GPUPOST_DOCS))), "\n";
echo gp_error_of(fn() => gp_on('device', fn() => gpu_decode_postings_batch($cut, GPUPOST_MOD9, GPUPOST_DOCS))), "\n";
printf("%s words\n", $words > 100000 ? 'over 100000' : $words);
echo "checked: $checked, mismatches: $bad\n";
var_dump($rejected > 10 && $rejected < $checked - 10);
?>
--EXPECTF--
GpuPost\Exception: %sblob 'b'%s
GpuPost\Exception: %sblob 'b'%s
GpuPost\Exception: %sblob 'b'%s
GpuPost\Exception: %sblob 'b'%s
over 100000 words
checked: 60, mismatches: 0
bool(true)
