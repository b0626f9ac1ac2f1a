--TEST--
A device call's regions (one buffer, one write, one read): lists of 1 to 30,000 values in random order, so that each call lays its regions out anew and their sub-buffers are kept, reused and replaced, in MOD9 VALUES, DOCS and POSTINGS, S9 and QS, one list and batches: equal to the host; again through the GPU's transfers (GPUPOST_FORCE_STAGING=1 in a test build)
--EXTENSIONS--
gpupost
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
mt_srand(78);
/* n values: for MOD9 POSTINGS, postings of 1 to 7 positions */
function postings_of(int $n): array
{
    $docs = [];
    for ($d = 0, $left = $n; $left > 0;) {
        $k = min($left, mt_rand(1, 7));
        $pos = [];
        for ($p = 0, $i = 0; $i < $k; $i++) $pos[] = $p += mt_rand(1, 300);
        $docs[$d += mt_rand(1, 40)] = $pos;
        $left -= $k;
    }
    return $docs;
}
$cases = [];
for ($i = 0; $i < 160; $i++) {
    $n = (int)round(exp(mt_rand() / mt_getrandmax() * log(30000)));   /* 1 .. 30,000, log-uniform */
    $values = [];
    for ($v = 0, $j = 0; $j < $n; $j++) $values[] = $v += mt_rand(1, 1000);
    $post = gpu_encode_postings(postings_of($n), GPUPOST_MOD9, GPUPOST_POSTINGS);
    $cases[] = [$post, GPUPOST_MOD9, GPUPOST_VALUES];
    $cases[] = [$post, GPUPOST_MOD9, GPUPOST_DOCS];
    $cases[] = [$post, GPUPOST_MOD9, GPUPOST_POSTINGS];
    $cases[] = [gpu_encode_postings($values, GPUPOST_S9, GPUPOST_VALUES, ['delta' => 1]), GPUPOST_S9, GPUPOST_VALUES];
    $cases[] = [gpu_encode_postings($values, GPUPOST_QS), GPUPOST_QS, GPUPOST_VALUES];
}
shuffle($cases);
$bad = 0;
function compare_all(array $cases, string $how, int &$bad): void
{
    foreach ($cases as $k => [$blob, $format, $mode]) {
        $dev = gp_on('device', fn() => gpu_decode_postings($blob, $format, $mode));
        $host = gp_on('host', fn() => gpu_decode_postings($blob, $format, $mode));
        if ($dev !== $host && $bad++ < 3) echo "$how case $k (format $format, mode $mode): the device differs\n";
    }
    /* batches of 2 to 6 of the same blobs */
    for ($i = 0; $i < 60; $i++) {
        [, $format, $mode] = $cases[mt_rand(0, count($cases) - 1)];
        $batch = [];
        foreach ($cases as [$blob, $f, $m]) {
            if ($f === $format && $m === $mode && count($batch) < 6 && mt_rand(0, 20) === 0) $batch["k$i-" . count($batch)] = $blob;
        }
        if (count($batch) < 2) continue;
        $dev = gp_on('device', fn() => gpu_decode_postings_batch($batch, $format, $mode));
        $host = gp_on('host', fn() => gpu_decode_postings_batch($batch, $format, $mode));
        if ($dev !== $host && $bad++ < 6) echo "$how batch $i (format $format, mode $mode): the device differs\n";
    }
}
compare_all($cases, 'direct', $bad);
if (gpu_info()['test_hooks']) {
    putenv('GPUPOST_FORCE_STAGING=1');
    compare_all($cases, 'staged', $bad);
    putenv('GPUPOST_FORCE_STAGING');
}
echo "differences: $bad\n";

?>
--EXPECT--
differences: 0
