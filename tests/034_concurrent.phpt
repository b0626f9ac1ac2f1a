--TEST--
Several PHP processes decoding on the same device at once all get correct results
--EXTENSIONS--
gpupost
--SKIPIF--
<?php require __DIR__ . '/gpupost_test.inc'; if (!gp_device_available()) die('skip no OpenCL device: ' . gpu_info()['reason']); ?>
--FILE--
<?php
$php = getenv('TEST_PHP_EXECUTABLE') ?: PHP_BINARY;
$ext = ini_get('extension_dir') . '/gpupost.so';
$child = <<<'CODE'
ini_set('gpupost.min_device_values', '0');
$seed = (int)$argv[1];
mt_srand($seed);
$bad = 0;
for ($round = 0; $round < 40; $round++) {
    $lists = [];
    for ($i = 0; $i < 50; $i++) {
        $l = [];
        for ($k = mt_rand(1, 400); $k > 0; $k--) $l[] = mt_rand(1, (1 << mt_rand(1, 28)) - 1);
        $lists[] = $l;
    }
    $blobs = array_map('gpu_encode_postings', $lists);
    $got = gpu_decode_postings_batch($blobs);
    if ($got !== $lists || gpu_info()['last_backend'] !== 'opencl') $bad++;
}
echo "child $seed: bad $bad\n";
CODE;
$procs = [];
for ($c = 1; $c <= 4; $c++) {
    $cmd = [$php, '-n', '-d', "extension=$ext", '-r', $child, (string)$c];
    $procs[$c] = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes[$c]);
}
$out = [];
foreach ($procs as $c => $p) {
    $out[$c] = trim(stream_get_contents($pipes[$c][1]) . stream_get_contents($pipes[$c][2]));
    proc_close($p);
}
echo implode("\n", $out), "\n";
?>
--EXPECT--
child 1: bad 0
child 2: bad 0
child 3: bad 0
child 4: bad 0
