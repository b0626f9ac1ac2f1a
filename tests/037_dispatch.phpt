--TEST--
Automatic dispatch: small lists on the host; above gpupost.min_device_values a GPU takes them, a CPU OpenCL device (PoCL) only when the threshold is 0
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
ini_set('gpupost.min_device_values', '0');
gpu_decode_postings($small);
echo "threshold 0: ", gpu_info()['last_backend'], "\n";
?>
--EXPECTF--
100 values: host
24000 values: as expected for a %s device
threshold 0: opencl
