--TEST--
gpupost.device: an unknown value warns and acts as auto; a P:D that matches no device falls back to the host
--EXTENSIONS--
gpupost
--INI--
gpupost.device=9:9
gpupost.min_device_values=0
--FILE--
<?php
var_dump(gpu_decode_postings(pack('N', 0x3c0014e5)) === [1, 2, 3, 4, 5]);
$i = gpu_info();
var_dump($i['backend'], $i['last_backend'], $i['reason']);
/* an unknown value, in a child PHP started with it */
$php = getenv('TEST_PHP_EXECUTABLE') ?: PHP_BINARY;
$ext = ini_get('extension_dir') . '/gpupost.so';
$out = shell_exec(escapeshellarg($php) . ' -n -d extension=' . escapeshellarg($ext) .
    ' -d gpupost.device=bogus -r ' . escapeshellarg('echo ini_get("gpupost.device"), "\n";') . ' 2>&1');
echo trim($out), "\n";
?>
--EXPECTF--
bool(true)
string(4) "host"
string(4) "host"
string(45) "no OpenCL device matches gpupost.device="9:9""
%AWarning: PHP Startup: gpupost.device must be auto, gpu, cpu, host, P:D, gpu:all, cpu:all, all or a list of P:D, "bogus" given; using auto in %s
bogus
