--TEST--
WAH rows of one bitmap on the device, its rows buffer sized before the count is known: small bitmaps (sized from the bound), large ones with more rows than the buffer holds (decoded again into a larger one) and then fewer; every result equal to the host's
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
$check('denser still: grown again', range(0, 9999999), 10000000);
$check('empty', [], 9000000);
echo "mismatches: $bad\n";
?>
--EXPECT--
mismatches: 0
