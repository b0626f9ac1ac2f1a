--TEST--
Fork after device use: the child takes the host path (never the parent's context), gets correct results; the parent keeps the device
--EXTENSIONS--
gpupost
pcntl
--SKIPIF--
<?php require __DIR__ . '/gpupost_test.inc'; if (!gp_device_available()) die('skip no OpenCL device: ' . gpu_info()['reason']); ?>
--INI--
gpupost.min_device_values=0
--FILE--
<?php
$list = range(1, 5000);
$blob = gpu_encode_postings($list);
var_dump(gpu_decode_postings($blob) === $list, gpu_info()['last_backend']);
$pipe = tempnam(sys_get_temp_dir(), 'gpfork');
$pid = pcntl_fork();
if ($pid === 0) {
    $ok = gpu_decode_postings($blob) === $list;
    $i = gpu_info();
    file_put_contents($pipe, json_encode([$ok, $i['last_backend'], $i['backend'], str_contains((string)$i['reason'], 'forked')]));
    exit(0);
}
pcntl_waitpid($pid, $status);
echo file_get_contents($pipe), "\n";
unlink($pipe);
var_dump(pcntl_wexitstatus($status));
var_dump(gpu_decode_postings($blob) === $list, gpu_info()['last_backend']);
?>
--EXPECT--
bool(true)
string(6) "opencl"
[true,"host","host",true]
int(0)
bool(true)
string(6) "opencl"
