--TEST--
Device faults: allocation and launch failures (injected with GPUPOST_FAULT) end in the host path with correct results; the process keeps working and the next call runs on the device
--EXTENSIONS--
gpupost
--SKIPIF--
<?php require __DIR__ . '/gpupost_test.inc'; if (!gp_device_available()) die('skip no OpenCL device: ' . gpu_info()['reason']); if (!gpu_info()['test_hooks']) die('skip a release build: the test hooks are compiled in by ./configure --enable-gpupost-test-hooks (scripts/test.sh)'); ?>
--INI--
gpupost.min_device_values=0
--FILE--
<?php
mt_srand(11);
$list = [];
for ($i = 0; $i < 5000; $i++) $list[] = mt_rand(1, 1000);
$mod9 = gpu_encode_postings($list);
$qs = gpu_encode_postings(range(0, 30000, 3), GPUPOST_QS);
$wah = gpu_encode_postings(range(5, 900, 2), GPUPOST_WAH);
$calls = [
    'mod9' => [fn() => gpu_decode_postings($mod9), $list],
    'qs' => [fn() => gpu_decode_postings($qs, GPUPOST_QS), range(0, 30000, 3)],
    'wah rows' => [fn() => gpu_decode_postings($wah, GPUPOST_WAH), range(5, 900, 2)],
    'wah query' => [fn() => gpu_wah_query([$wah, $wah]), range(5, 900, 2)],
    'prefix sum' => [fn() => gpu_prefix_sum([1, 2, 3]), [1, 3, 6]],
];
foreach (['alloc', 'launch'] as $fault) {
    foreach ($calls as $name => [$call, $want]) {
        $before = gpu_info()['device_failures'];
        putenv("GPUPOST_FAULT=$fault");
        $got = $call();
        $i = gpu_info();
        putenv('GPUPOST_FAULT');
        $after = $call();
        printf("%s, %s: %s on %s, failures +%d, %s; then %s on %s\n", $fault, $name,
            $got === $want ? 'correct' : 'WRONG', $i['last_backend'], $i['device_failures'] - $before,
            str_contains((string)$i['last_device_error'], 'injected') ? 'reported' : 'NOT REPORTED',
            $after === $want ? 'correct' : 'WRONG', gpu_info()['last_backend']);
    }
}
?>
--EXPECT--
alloc, mod9: correct on host, failures +1, reported; then correct on opencl
alloc, qs: correct on host, failures +1, reported; then correct on opencl
alloc, wah rows: correct on host, failures +1, reported; then correct on opencl
alloc, wah query: correct on host, failures +1, reported; then correct on opencl
alloc, prefix sum: correct on host, failures +1, reported; then correct on opencl
launch, mod9: correct on host, failures +1, reported; then correct on opencl
launch, qs: correct on host, failures +1, reported; then correct on opencl
launch, wah rows: correct on host, failures +1, reported; then correct on opencl
launch, wah query: correct on host, failures +1, reported; then correct on opencl
launch, prefix sum: correct on host, failures +1, reported; then correct on opencl
