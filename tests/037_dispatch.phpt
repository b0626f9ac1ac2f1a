--TEST--
Automatic dispatch: small lists on the host; above gpupost.min_device_values a GPU takes them, a CPU OpenCL device (PoCL) only when the threshold is 0; on a GPU each mode weighs its expected values by its crossover (MOD9 POSTINGS x2, DOCS x4, GROUP_VARINT a third)
--EXTENSIONS--
gpupost
--SKIPIF--
<?php require __DIR__ . '/gpupost_test.inc'; if (!gp_device_available()) die('skip no OpenCL device: ' . gpu_info()['reason']); ?>
--INI--
gpupost.min_device_values=1000
--FILE--
<?php
$small = gpu_encode_postings(range(1, 100));
$large = gpu_encode_postings(array_fill(0, 24000, 1));
$type = gpu_info()['device']['type'];
gpu_decode_postings($small);
echo "100 values: ", gpu_info()['last_backend'], "\n";
gpu_decode_postings($large);
$want = $type === 'cpu' ? 'host' : 'opencl';
echo "24000 values: ", gpu_info()['last_backend'] === $want ? "as expected for a $type device" : 'WRONG', "\n";
/* 200 postings of 3 values each: 600 values; S9 and QS lists of 700 */
$posts = [];
for ($d = 1; $d <= 200; $d++) $posts[$d * 3] = [1, 2, 3];
$blob = gpu_encode_postings($posts, GPUPOST_MOD9, GPUPOST_POSTINGS);
$list = range(1, 700);
$cases = [
    'MOD9 VALUES, 600 values (600)' => [fn() => gpu_decode_postings($blob, GPUPOST_MOD9, GPUPOST_VALUES), false],
    'MOD9 POSTINGS, 600 values (1200)' => [fn() => gpu_decode_postings($blob, GPUPOST_MOD9, GPUPOST_POSTINGS), true],
    'MOD9 DOCS, 600 values (2400)' => [fn() => gpu_decode_postings($blob, GPUPOST_MOD9, GPUPOST_DOCS), true],
    'S9, 700 values (700)' => [fn() => gpu_decode_postings(gpu_encode_postings($list, GPUPOST_S9), GPUPOST_S9), false],
    'QS, 700 values (700)' => [fn() => gpu_decode_postings(gpu_encode_postings($list, GPUPOST_QS), GPUPOST_QS), false],
    'VBYTE, 1200 values (1200)' => [fn() => gpu_decode_postings(gpu_encode_postings(range(1, 1200), GPUPOST_VBYTE), GPUPOST_VBYTE), true],
    'GROUP_VARINT, 2400 values (800)' => [fn() => gpu_decode_postings(gpu_encode_postings(range(1, 2400), GPUPOST_GROUP_VARINT), GPUPOST_GROUP_VARINT), false],
    'GROUP_VARINT, 3300 values (1100)' => [fn() => gpu_decode_postings(gpu_encode_postings(range(1, 3300), GPUPOST_GROUP_VARINT), GPUPOST_GROUP_VARINT), true],
];
foreach ($cases as $name => [$fn, $gpu]) {
    $fn();
    $want = $gpu && $type !== 'cpu' ? 'opencl' : 'host';
    echo "$name: ", gpu_info()['last_backend'] === $want ? 'as expected' : 'WRONG: ' . gpu_info()['last_backend'], "\n";
}
ini_set('gpupost.min_device_values', '0');
gpu_decode_postings($small);
echo "threshold 0: ", gpu_info()['last_backend'], "\n";
?>
--EXPECTF--
100 values: host
24000 values: as expected for a %s device
MOD9 VALUES, 600 values (600): as expected
MOD9 POSTINGS, 600 values (1200): as expected
MOD9 DOCS, 600 values (2400): as expected
S9, 700 values (700): as expected
QS, 700 values (700): as expected
VBYTE, 1200 values (1200): as expected
GROUP_VARINT, 2400 values (800): as expected
GROUP_VARINT, 3300 values (1100): as expected
threshold 0: opencl
