--TEST--
MOD9 VALUES batches on the host decode in one pass into a buffer grown blob by blob, keeping what it holds: equal to single calls and the reference decoder from an empty buffer (gpupost.max_cached_bytes=0) and from a kept one, with blobs of 1 to 40,000 words and a damaged blob late in the batch
--EXTENSIONS--
gpupost
--INI--
memory_limit=1G
gpupost.max_cached_bytes=0
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
mt_srand(69);
$blobs = $want = [];
for ($i = 0; $i < 300; $i++) {
    $n = [1, mt_rand(2, 50), mt_rand(100, 3000), mt_rand(20000, 60000)][mt_rand(0, 9) % 4];
    $list = rand_mod9_values($n);
    $blobs["k$i"] = gpu_encode_postings($list);
    $want["k$i"] = $list;
}
$bad = 0;
foreach (['0', '256M'] as $keep) {   /* from nothing each call, then from a kept buffer */
    ini_set('gpupost.max_cached_bytes', $keep);
    for ($round = 0; $round < 2; $round++) {
        $got = gp_on('host', fn() => gpu_decode_postings_batch($blobs));
        if ($got !== $want) { echo "batch differs (cached $keep, round $round)\n"; $bad++; }
    }
    $singles = [];
    foreach ($blobs as $k => $b) $singles[$k] = gp_on('host', fn() => gpu_decode_postings($b));
    if ($singles !== $want) { echo "singles differ\n"; $bad++; }
}
foreach (array_slice(array_keys($blobs), 0, 5) as $k) {
    if (ref_mod9_values($blobs[$k]) !== $want[$k]) { echo "reference differs for $k\n"; $bad++; }
}
/* a damaged blob after many good ones: the exception names it, nothing is returned */
$damaged = $blobs;
$damaged['k290'] = substr($damaged['k290'], 0, -2);
echo gp_error_of(fn() => gp_on('host', fn() => gpu_decode_postings_batch($damaged))), "\n";
echo "problems: $bad\n";
?>
--EXPECTF--
GpuPost\Exception: MOD9: blob 'k290', byte %d: %s
problems: 0
