--TEST--
WAH: random bitmaps of many densities and run structures, host against device against the reference; queries over 2 to 1000 bitmaps against PHP's array functions
--EXTENSIONS--
gpupost
--INI--
memory_limit=1G
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
mt_srand(4242);
$bad = 0;
$blobs = $sets = [];
foreach ([0.0, 0.001, 0.05, 0.5, 0.95, 1.0] as $d) {
    foreach ([32, 64] as $w) {
        foreach ([1, 31, 62, 63, 64, 1000, 65536, 300001] as $nbits) {
            $rows = rand_wah_rows($nbits, $d);
            $k = "$d/$w/$nbits";
            $sets[$k] = $rows;
            $blobs[$k] = gpu_encode_postings($rows, GPUPOST_WAH, GPUPOST_VALUES, ['word_bits' => $w, 'nbits' => $nbits]);
            if ($nbits <= 65536 && ref_wah_rows($blobs[$k]) !== $rows) { echo "reference $k\n"; $bad++; }
        }
    }
}
foreach (['host', 'device'] as $path) {
    $batch = gp_on($path, fn() => gpu_decode_postings_batch($blobs, GPUPOST_WAH));
    foreach ($sets as $k => $rows) {
        if ($batch[$k] !== $rows) { echo "$path batch $k\n"; $bad++; }
        $bytes = gp_on($path, fn() => gpu_wah_decompress($blobs[$k]));
        if (ref_rows_of_bytes($bytes) !== $rows) { echo "$path bytes $k\n"; $bad++; }
    }
}
/* queries: AND and OR of 2..1000 bins, against array_intersect / array_merge */
foreach ([2, 3, 17, 1000] as $nbins) {
    $nbits = $nbins > 100 ? 5000 : 100000;
    $bins = $rowsets = [];
    for ($b = 0; $b < $nbins; $b++) {
        $rowsets[$b] = rand_wah_rows($nbits, mt_rand(0, 100) / 100);
        $bins["bin$b"] = gpu_encode_postings($rowsets[$b], GPUPOST_WAH, GPUPOST_VALUES,
            ['word_bits' => $b % 2 ? 64 : 32, 'nbits' => $nbits]);
    }
    $or = array_values(array_unique(array_merge(...$rowsets)));
    sort($or);
    $and = array_values(count($rowsets) > 1 ? array_intersect(...$rowsets) : $rowsets[0]);
    foreach (['host', 'device'] as $path) {
        if (gp_on($path, fn() => gpu_wah_query($bins, GPUPOST_OR)) !== $or) { echo "$path OR $nbins\n"; $bad++; }
        if (gp_on($path, fn() => gpu_wah_query($bins, GPUPOST_AND)) !== $and) { echo "$path AND $nbins\n"; $bad++; }
    }
}
echo "bitmaps: ", count($blobs), ", mismatches: $bad\n";
?>
--EXPECT--
bitmaps: 96, mismatches: 0
