--TEST--
One small device call, step by step (GPUPOST_TRACE=1, as bench/call_cost.php's breakdown): one write of its inputs and control words, one kernel (a decode pass of one tile runs without its count pass), one read (a tile alone writes its error word, sizes and output into one region) and one wait (clFinish), nothing filled on the device, in MOD9 VALUES, DOCS and POSTINGS, S9, QS, VBYTE and GROUP_VARINT
--EXTENSIONS--
gpupost
--SKIPIF--
<?php
require __DIR__ . '/gpupost_test.inc';
if (!gp_device_available()) die('skip no OpenCL device');
?>
--ENV--
GPUPOST_TRACE=1
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
mt_srand(79);
$docs = [];
for ($d = 0, $i = 0; $i < 25; $i++) $docs[$d += mt_rand(1, 40)] = [1, 2, 3, 4];
$small = gpu_encode_postings($docs, GPUPOST_MOD9, GPUPOST_POSTINGS);
foreach ([[$small, GPUPOST_MOD9, GPUPOST_VALUES], [$small, GPUPOST_MOD9, GPUPOST_DOCS], [$small, GPUPOST_MOD9, GPUPOST_POSTINGS],
          [gpu_encode_postings(range(1, 100), GPUPOST_S9, GPUPOST_VALUES), GPUPOST_S9, GPUPOST_VALUES],
          [gpu_encode_postings(range(1, 100), GPUPOST_QS), GPUPOST_QS, GPUPOST_VALUES],
          [gpu_encode_postings(range(1, 100), GPUPOST_VBYTE, GPUPOST_VALUES, ['delta' => 1]), GPUPOST_VBYTE, GPUPOST_VALUES],
          [gpu_encode_postings(range(1, 100), GPUPOST_GROUP_VARINT, GPUPOST_VALUES, ['delta' => 1]), GPUPOST_GROUP_VARINT, GPUPOST_VALUES]] as [$blob, $format, $mode]) {
    gp_on('device', fn() => gpu_decode_postings($blob, $format, $mode));
    $steps = array_column(gpu_info()['trace'], 0);
    $count = fn(string $re) => count(preg_grep($re, $steps));
    printf("format %d mode %d: %d write, %d kernel, %d read, %d wait, %d filled\n", $format, $mode, $count('/^write enqueued$/'),
        $count('/^(mod9|s9|qs|vb|gv)_/'), $count('/^read enqueued$/'), $count('/clFinish/'), $count('/fill/'));
}
?>
--EXPECT--
format 1 mode 0: 1 write, 1 kernel, 1 read, 1 wait, 0 filled
format 1 mode 1: 1 write, 1 kernel, 1 read, 1 wait, 0 filled
format 1 mode 2: 1 write, 1 kernel, 1 read, 1 wait, 0 filled
format 2 mode 0: 1 write, 1 kernel, 1 read, 1 wait, 0 filled
format 3 mode 0: 1 write, 1 kernel, 1 read, 1 wait, 0 filled
format 5 mode 0: 1 write, 1 kernel, 1 read, 1 wait, 0 filled
format 6 mode 0: 1 write, 1 kernel, 1 read, 1 wait, 0 filled
