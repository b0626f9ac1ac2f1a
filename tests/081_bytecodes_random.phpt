--TEST--
VBYTE and GROUP_VARINT: random lists of every delta rule and value width (one to five bytes), from empty to hundreds of device tiles (groups and values straddling tiles), decoded on the host (SIMD), the device and by the PHP reference, equal to the list; batches with empty blobs first, between and last; again through the GPU's transfers in a test build
--EXTENSIONS--
gpupost
--INI--
memory_limit=1G
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
mt_srand(81);
$formats = ['VBYTE' => GPUPOST_VBYTE, 'GROUP_VARINT' => GPUPOST_GROUP_VARINT];
$ref = ['VBYTE' => 'ref_vbyte_decode', 'GROUP_VARINT' => 'ref_gvarint_decode'];
$bad = 0;
/* sizes around the SIMD blocks (16 values, 24) and many tiles; the sanitizer and valgrind runs
 * (host path, Zend's allocator off) stop at 5003 values, which every path of the host decoders
 * reaches */
$sizes = [0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 23, 24, 25, 28, 29, 31, 33, 47, 100, 1000, 5003, 40000, 300000];
if (getenv('USE_ZEND_ALLOC') === '0') $sizes = array_slice($sizes, 0, -2);
$lists = [];
foreach ($sizes as $n) {
    foreach ([0, 1, 2] as $delta) {
        $maxgap = [127, 255, 16383, 70000, 0xFFFFFFFF][mt_rand(0, 4)];
        $lists[] = [rand_byte_list($n, $delta, $n > 1000 ? min($maxgap, 16383) : $maxgap), $delta];
    }
}
/* every value of 1 to 5 bytes at its bounds */
$edges = [0, 127, 128, 255, 256, 16383, 16384, 65535, 65536, 2097151, 2097152, 16777215, 16777216, 268435455, 268435456, 4294967295];
$lists[] = [$edges, 0];
$lists[] = [array_merge(...array_fill(0, 7, $edges)), 0];
function check_all(array $lists, array $formats, array $ref, string $how, int &$bad): void
{
    foreach ($formats as $name => $f) {
        foreach ($lists as $k => [$list, $delta]) {
            $blob = gpu_encode_postings($list, $f, GPUPOST_VALUES, ['delta' => $delta]);
            $host = gp_on('host', fn() => gpu_decode_postings($blob, $f));
            $dev = gp_on('device', fn() => gpu_decode_postings($blob, $f));
            if ($host !== $list || $dev !== $list) { echo "$how $name list $k (", count($list), " values, delta $delta): host ", $host === $list ? 'ok' : 'differs', ", device ", $dev === $list ? 'ok' : 'differs', "\n"; $bad++; }
            if (count($list) <= 40000 && $how === 'direct' && $ref[$name]($blob) !== $list) { echo "$name list $k: the reference differs\n"; $bad++; }
        }
        /* batches of 2 to 9 lists, with empty blobs among them */
        for ($i = 0; $i < 12; $i++) {
            $batch = $want = [];
            for ($j = mt_rand(2, 9); $j > 0; $j--) {
                [$list, $delta] = mt_rand(0, 3) ? $lists[mt_rand(0, count($lists) - 1)] : [[], 0];
                $batch["k$j"] = gpu_encode_postings($list, $f, GPUPOST_VALUES, ['delta' => $delta]);
                $want["k$j"] = $list;
            }
            $host = gp_on('host', fn() => gpu_decode_postings_batch($batch, $f));
            $dev = gp_on('device', fn() => gpu_decode_postings_batch($batch, $f));
            if ($host !== $want || $dev !== $want) { echo "$how $name batch $i: host ", $host === $want ? 'ok' : 'differs', ", device ", $dev === $want ? 'ok' : 'differs', "\n"; $bad++; }
        }
    }
}
check_all($lists, $formats, $ref, 'direct', $bad);
if (gpu_info()['test_hooks']) {
    putenv('GPUPOST_FORCE_STAGING=1');
    check_all(array_slice($lists, 0, 40), $formats, $ref, 'staged', $bad);
    putenv('GPUPOST_FORCE_STAGING');
}
echo "differences: $bad\n";
?>
--EXPECT--
differences: 0
