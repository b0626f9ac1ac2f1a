--TEST--
Transfers through the pinned staging buffers (the GPU's path, forced with GPUPOST_FORCE_STAGING=1 on any device): results equal the host path, for every format and with growing sizes
--EXTENSIONS--
gpupost
--SKIPIF--
<?php require __DIR__ . '/gpupost_test.inc'; if (!gp_device_available()) die('skip no OpenCL device: ' . gpu_info()['reason']); if (!gpu_info()['test_hooks']) die('skip a release build: the test hooks are compiled in by ./configure --enable-gpupost-test-hooks (scripts/test.sh)'); ?>
--INI--
memory_limit=512M
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
putenv('GPUPOST_FORCE_STAGING=1');
mt_srand(38);
$bad = 0;
foreach ([10, 5000, 300000, 20] as $n) {   /* grow, then shrink: the staging buffers are reused */
    $vals = rand_mod9_values($n);
    $sorted = rand_sorted($n, 1 << 30, true);
    $cases = [
        'mod9' => [fn() => gpu_decode_postings(gpu_encode_postings($vals)), $vals],
        'mod9 batch' => [fn() => gpu_decode_postings_batch(['a' => gpu_encode_postings($vals), 'b' => '']), ['a' => $vals, 'b' => []]],
        'mod9 postings' => [fn() => gpu_decode_postings(gpu_encode_postings([7 => $sorted ? array_map(fn($x) => $x + 1, array_values(array_unique($sorted))) : []], GPUPOST_MOD9, GPUPOST_POSTINGS), GPUPOST_MOD9, GPUPOST_POSTINGS), null],
        's9' => [fn() => gpu_decode_postings(gpu_encode_postings($sorted, GPUPOST_S9, GPUPOST_VALUES, ['delta' => 1]), GPUPOST_S9), $sorted],
        'qs' => [fn() => gpu_decode_postings(gpu_encode_postings($sorted, GPUPOST_QS), GPUPOST_QS), $sorted],
        'wah' => [fn() => gpu_decode_postings(gpu_encode_postings(array_values(array_unique($sorted)), GPUPOST_WAH), GPUPOST_WAH), array_values(array_unique($sorted))],
        'prefix' => [fn() => gpu_prefix_sum($vals), null],
    ];
    foreach ($cases as $name => [$fn, $want]) {
        $d = gp_on('device', $fn);
        $h = gp_on('host', $fn);
        if ($d !== $h || ($want !== null && $d !== $want)) { echo "$name n=$n differs\n"; $bad++; }
    }
    $bins = [gpu_encode_postings(range(0, 999, 3), GPUPOST_WAH, GPUPOST_VALUES, ['nbits' => 5000]),
             gpu_encode_postings(range(0, 4999, 7), GPUPOST_WAH, GPUPOST_VALUES, ['nbits' => 5000])];
    if (gp_on('device', fn() => gpu_wah_query($bins)) !== gp_on('host', fn() => gpu_wah_query($bins))) { echo "query differs\n"; $bad++; }
    if (gp_on('device', fn() => gpu_wah_decompress($bins[1])) !== gp_on('host', fn() => gpu_wah_decompress($bins[1]))) { echo "decompress differs\n"; $bad++; }
}
/* Uploads of 4 MB and more are copied into the staging memory by a pool of threads, each taking
 * the next piece: one long blob, and a batch whose parts straddle the pieces. The long
 * blob is also S9's tiled decode over hundreds of tiles and many blocks of tile sums, with
 * running sums past 2^47 (delta 1 of 28-bit gaps): the 64-bit offsets rebuilt from 32-bit
 * halves and limbs (kernels/s9.cl). */
$big = array_map(fn() => mt_rand(0, (1 << 28) - 1), range(1, 1200000));   /* one word a value */
$sums = [];
$x = 0;
foreach ($big as $gap) $sums[] = $x += $gap;
$blob = gpu_encode_postings($sums, GPUPOST_S9, GPUPOST_VALUES, ['delta' => 1]);
if (gp_on('device', fn() => gpu_decode_postings($blob, GPUPOST_S9)) !== $sums) { echo "threaded upload differs\n"; $bad++; }
if ($x < 1 << 47) { echo "sums too small to test\n"; $bad++; }
$lists = $blobs = [];
for ($i = 0; $i < 300; $i++) {
    $lists[] = array_slice($big, $i * 3989, 3989);
    $blobs[] = gpu_encode_postings($lists[$i], GPUPOST_S9, GPUPOST_VALUES, ['delta' => 0]);
}
if (gp_on('device', fn() => gpu_decode_postings_batch($blobs, GPUPOST_S9)) !== $lists) { echo "threaded batch upload differs\n"; $bad++; }
/* the same with pieces of 64 KB on 16 workers: many pieces each, taken in any order */
putenv('GPUPOST_UPLOAD_PIECE=64');
putenv('GPUPOST_UPLOAD_THREADS=16');
if (gp_on('device', fn() => gpu_decode_postings_batch($blobs, GPUPOST_S9)) !== $lists) { echo "small-piece batch upload differs\n"; $bad++; }
if (gp_on('device', fn() => gpu_decode_postings($blob, GPUPOST_S9)) !== $sums) { echo "small-piece upload differs\n"; $bad++; }
/* pieces growing from 64 KB by doubling every 3 workers to a cap that is no power of two times
 * the first (64, 128, 256, 512, then 1000 KB): a blob that differs everywhere from what the
 * staging memory and the device buffer last held, so a piece skipped or misplaced shows */
putenv('GPUPOST_UPLOAD_FIRST=64');
putenv('GPUPOST_UPLOAD_PIECE=1000');
putenv('GPUPOST_UPLOAD_THREADS=3');
$sums2 = [];
$x = 0;
foreach (array_reverse($big) as $gap) $sums2[] = $x += $gap + 1;
$blob2 = gpu_encode_postings($sums2, GPUPOST_S9, GPUPOST_VALUES, ['delta' => 1]);
if (gp_on('device', fn() => gpu_decode_postings($blob2, GPUPOST_S9)) !== $sums2) { echo "growing-piece upload differs\n"; $bad++; }
putenv('GPUPOST_UPLOAD_FIRST');
putenv('GPUPOST_UPLOAD_PIECE');
putenv('GPUPOST_UPLOAD_THREADS');
printf("%.1f MB, %.1f MB uploaded\n", strlen($blob) / 1e6, array_sum(array_map('strlen', $blobs)) / 1e6);
echo "mismatches: $bad\n";
?>
--EXPECT--
4.8 MB, 4.8 MB uploaded
mismatches: 0
