--TEST--
WAH batches and queries on the device, each bitmap's first groups found by tiles of its own: dozens of bitmaps of 32- and 64-bit words from none to many tiles long, decoded to rows and queried, equal to the host; damaged blobs (one at a time, in the batch with two of its long bitmaps) give the host's exception, blob key included; without a device each check runs once, on the host
--EXTENSIONS--
gpupost
--INI--
memory_limit=1G
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
mt_srand(64);
$hdr = fn(int $w, int $nbits) => 'GPWH' . chr($w) . "\0\0\0" . pack('P', $nbits);
$blobs = $want = [];
for ($i = 0; $i < 40; $i++) {
    $nbits = [0, mt_rand(1, 2000), mt_rand(2000, 200000), mt_rand(1000000, 3000000)][mt_rand(0, 9) % 4];
    $rows = $nbits ? rand_wah_rows($nbits, [0.02, 0.5][mt_rand(0, 1)]) : [];
    $blobs["w$i"] = gpu_encode_postings($rows, GPUPOST_WAH, GPUPOST_VALUES, ['nbits' => $nbits, 'word_bits' => [32, 64][mt_rand(0, 1)]]);
    $want["w$i"] = $rows;
}
$words = array_sum(array_map(fn($b) => (strlen($b) - 16) / (ord($b[4]) / 8), $blobs));
$bad = $checked = $rejected = 0;
/* (gp_outcomes: without a device each check runs once, on the host) */
[[$h], [$d]] = gp_outcomes(fn() => gpu_decode_postings_batch($blobs, GPUPOST_WAH));
if ($h !== $want || $d !== $want) { echo "batch differs\n"; $bad++; }
/* queries: bins of one size (all their nbits alike), many words each */
$bins = [];
for ($i = 0; $i < 12; $i++) {
    $bins[] = gpu_encode_postings(rand_wah_rows(2500000, [0.01, 0.3][$i % 2]), GPUPOST_WAH, GPUPOST_VALUES, ['nbits' => 2500000, 'word_bits' => 32]);
}
foreach ([GPUPOST_OR, GPUPOST_AND] as $op) {
    [[$h], [$d]] = gp_outcomes(fn() => gpu_wah_query($bins, $op));
    if ($h === null || $h !== $d) { echo "query $op differs\n"; $bad++; }
}
/* damage, one blob at a time, in the batch less all but two of its long bitmaps (each long one
 * many tiles: they make the arrays, not the checks) */
$long = 0;
$damaged = array_filter($blobs, function ($b) use (&$long) { return strlen($b) < 40000 || $long++ < 2; });
for ($m = 0; $m < 40; $m++) {
    $b = $damaged;
    do { $k = array_rand($b); } while (strlen($b[$k]) <= 16);
    $at = mt_rand(16, strlen($b[$k]) - 1);
    $b[$k][$at] = chr(ord($b[$k][$at]) ^ (1 << mt_rand(0, 7)));
    [[$hv, $h], [$dv, $d]] = gp_outcomes(fn() => gpu_decode_postings_batch($b, GPUPOST_WAH));
    $checked++;
    $rejected += $h !== 'no exception';
    if ($h !== $d || $hv !== $dv) { echo "blob $k changed at $at: host '$h', device '$d'\n"; $bad++; }
    if ($m % 4 === 0) {   /* and as a query's bin */
        $q = $bins;
        $q[3][$at % (strlen($q[3]) - 16) + 16] = chr(ord($q[3][$at % (strlen($q[3]) - 16) + 16]) ^ 0x10);
        [[, $hq], [, $dq]] = gp_outcomes(fn() => gpu_wah_query($q, GPUPOST_OR));
        if ($hq !== $dq) { echo "query bin changed: host '$hq', device '$dq'\n"; $bad++; }
    }
}
/* a blob with rows but no words, among good ones (the dispatch sends such a batch to the host) */
$nowords = ['a' => $blobs['w1'], 'z' => $hdr(32, 100), 'c' => $blobs['w2']];
echo gp_error_of(fn() => gp_on('host', fn() => gpu_decode_postings_batch($nowords, GPUPOST_WAH))), "\n";
echo gp_error_of(fn() => gp_on('device', fn() => gpu_decode_postings_batch($nowords, GPUPOST_WAH))), "\n";
printf("%s words\n", $words > 100000 ? 'over 100000' : $words);
echo "checked: $checked, mismatches: $bad\n";
var_dump($rejected > 5 && $rejected < $checked - 5);
?>
--EXPECTF--
GpuPost\Exception: %sblob 'z'%s
GpuPost\Exception: %sblob 'z'%s
over 100000 words
checked: 40, mismatches: 0
bool(true)
