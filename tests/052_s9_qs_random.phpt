--TEST--
S9 and QS: random round trips, host against device against the reference decoders, singles and batches
--EXTENSIONS--
gpupost
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
mt_srand(31337);
$bad = 0;
$checked = 0;
$qs = $s9 = $qs_lists = $s9_lists = [];
foreach ([0, 1, 2, 31, 32, 33, 1000, 100000] as $n) {
    foreach ([0.5, 1.0, 2.0] as $c) {
        foreach (['sparse' => 0xFFFFFFFF, 'dense' => $n, 'tiny' => 3] as $shape => $max) {
            $list = array_slice(rand_sorted($n, max(0, $max), true), 0, $n);
            $key = "$n/$c/$shape";
            $qs_lists[$key] = $list;
            $qs[$key] = gpu_encode_postings($list, GPUPOST_QS, GPUPOST_VALUES, ['c' => $c]);
            if ($n <= 1000 && ref_qs_decode($qs[$key]) !== $list) { echo "QS reference $key\n"; $bad++; }
        }
    }
    foreach ([0, 1, 2] as $delta) {
        $list = match ($delta) {
            0 => array_map(fn() => mt_rand(0, (1 << mt_rand(0, 28)) - 1), range(1, max(1, $n))),
            1 => rand_sorted($n, min(0x0FFFFFFF, max(1, $n) * 50), true),
            2 => rand_sorted($n, min(0x0FFFFFFF, max(1, $n) * 50), false),
        };
        $list = array_slice($list, 0, $n);
        $key = "$n/$delta";
        $s9_lists[$key] = $list;
        $s9[$key] = gpu_encode_postings($list, GPUPOST_S9, GPUPOST_VALUES, ['delta' => $delta]);
        if ($n <= 1000 && ref_s9_decode($s9[$key]) !== $list) { echo "S9 reference $key\n"; $bad++; }
    }
}
/* values up to 2^32-1 and l = 0 (every value equal) */
$qs_lists['top'] = [4294967290, 4294967295, 4294967295];
$qs_lists['same'] = array_fill(0, 77, 12345);
$qs['top'] = gpu_encode_postings($qs_lists['top'], GPUPOST_QS);
$qs['same'] = gpu_encode_postings($qs_lists['same'], GPUPOST_QS);
/* a list far from 0: its upper bits start with thousands of zeros (the host decoder's order
 * check runs a few thousand values at a time, and none has been decoded yet there) */
$qs_lists['offset'] = range(100000, 109999);
$qs['offset'] = gpu_encode_postings($qs_lists['offset'], GPUPOST_QS);
var_dump(ord($qs['same'][5]));   /* l for 77 copies of 12345: floor(log2(160.3)) = 7 */
foreach ([[GPUPOST_QS, $qs, $qs_lists], [GPUPOST_S9, $s9, $s9_lists]] as [$format, $blobs, $lists]) {
    foreach (['host', 'device'] as $path) {
        $batch = gp_on($path, fn() => gpu_decode_postings_batch($blobs, $format));
        foreach ($lists as $k => $list) {
            $checked++;
            if ($batch[$k] !== $list) { echo "$format $path batch $k\n"; $bad++; }
            $single = gp_on($path, fn() => gpu_decode_postings($blobs[$k], $format));
            if ($single !== $list) { echo "$format $path single $k\n"; $bad++; }
        }
    }
}
/* many small random lists in one batch */
$blobs = $lists = [];
for ($i = 0; $i < 2000; $i++) {
    $lists[$i] = rand_sorted(mt_rand(0, 60), mt_rand(0, 1) ? 1000 : 0xFFFFFFFF, true);
    $blobs[$i] = gpu_encode_postings($lists[$i], GPUPOST_QS, GPUPOST_VALUES, ['c' => [0.5, 1, 2][$i % 3]]);
}
$d = gp_on('device', fn() => gpu_decode_postings_batch($blobs, GPUPOST_QS));
$h = gp_on('host', fn() => gpu_decode_postings_batch($blobs, GPUPOST_QS));
foreach ($lists as $i => $l) {
    $checked++;
    if ($d[$i] !== $l || $h[$i] !== $l || ref_qs_decode($blobs[$i]) !== $l) { echo "small QS $i\n"; $bad++; }
}
echo "checked: $checked, mismatches: $bad\n";
?>
--EXPECTF--
int(7)
checked: %d, mismatches: 0
