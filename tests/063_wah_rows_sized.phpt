--TEST--
WAH rows on the device, the rows buffer sized before the count is known: one bitmap or a batch (each bitmap with tiles of its own), small (sized from the bound), large with more rows than the buffer holds (decoded again into a larger one) and then fewer, empty bitmaps first, between and last; every result equal to the host's
--EXTENSIONS--
gpupost
--INI--
memory_limit=1G
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
$bad = 0;
$check = function (string $name, array $rows, int $nbits) use (&$bad) {
    $blob = gpu_encode_postings($rows, GPUPOST_WAH, GPUPOST_VALUES, ['nbits' => $nbits]);
    $dev = gp_on('device', fn() => gpu_decode_postings($blob, GPUPOST_WAH));
    if ($dev !== $rows || gp_on('host', fn() => gpu_decode_postings($blob, GPUPOST_WAH)) !== $rows) {
        echo "$name: differs (", count($dev), " rows, want ", count($rows), ")\n";
        $bad++;
    }
    /* the same bitmap as the result of a query (OR with an empty bin) */
    $empty = gpu_encode_postings([], GPUPOST_WAH, GPUPOST_VALUES, ['nbits' => $nbits]);
    if (gp_on('device', fn() => gpu_wah_query([$blob, $empty], GPUPOST_OR)) !== $rows) { echo "$name: query differs\n"; $bad++; }
};
/* 9M bits: 290k words, a bound of 74 MB; this process's rows buffer starts empty */
$check('small first', range(5, 40000, 3), 40001);
$check('dense, many more rows than words', array_merge(range(0, 2999999, 2), range(3000001, 8999999, 5)), 9000000);
$check('again, the buffer now large enough', array_merge(range(0, 2999999, 2), range(3000001, 8999999, 5)), 9000000);
$check('sparse', range(7, 8999999, 97), 9000000);
/* a batch past the buffer (10.8M rows against 4.5M), then within it */
$big = ['a' => range(0, 12999999, 2), 'e' => [], 'b' => range(1, 12999999, 3)];
$bblobs = array_map(fn($r) => gpu_encode_postings($r, GPUPOST_WAH, GPUPOST_VALUES, ['nbits' => 13000000]), $big);
for ($k = 0; $k < 2; $k++) {
    if (gp_on('device', fn() => gpu_decode_postings_batch($bblobs, GPUPOST_WAH)) !== $big) { echo "large batch $k differs\n"; $bad++; }
}
unset($big, $bblobs);
$check('denser, within the grown buffer', range(0, 9999999), 10000000);
$check('empty', [], 9000000);
/* a batch of many small bitmaps, empty ones first, among them and last */
mt_srand(63);
$blobs = $want = [];
for ($i = 0; $i < 60; $i++) {
    $nbits = [0, mt_rand(1, 100), mt_rand(100, 20000), mt_rand(20000, 300000)][mt_rand(0, 3)];
    $rows = $nbits ? rand_wah_rows($nbits, [0.01, 0.3][mt_rand(0, 1)]) : [];
    $blobs["w$i"] = gpu_encode_postings($rows, GPUPOST_WAH, GPUPOST_VALUES, ['nbits' => $nbits, 'word_bits' => [32, 64][mt_rand(0, 1)]]);
    $want["w$i"] = $rows;
}
$blobs['last'] = gpu_encode_postings([], GPUPOST_WAH, GPUPOST_VALUES, ['nbits' => 0]);
$want['last'] = [];
$blobs = ['first' => $blobs['last']] + $blobs;
$want = ['first' => []] + $want;
if (gp_on('device', fn() => gpu_decode_postings_batch($blobs, GPUPOST_WAH)) !== $want ||
    gp_on('host', fn() => gpu_decode_postings_batch($blobs, GPUPOST_WAH)) !== $want) { echo "small batch differs\n"; $bad++; }
echo "mismatches: $bad\n";
?>
--EXPECT--
mismatches: 0
