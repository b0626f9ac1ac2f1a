<?php
/* The page the php-fpm load test serves (scripts/fpm-load.sh): decodes posting lists made from
 * the request's seed through gpupost - MOD9 postings in a batch, a QS list, a WAH OR query - on the
 * backend the pool is configured for, checks them against the host path in the same request, and
 * answers "OK <md5>" (fixed length) or a 500. Every request also makes one large call (1.2M values,
 * 16 MiB as a PHP array and 4.8 MB of C scratch, checked) and one refused call (a 24-byte bitmap claiming 2^40 rows),
 * so that the load test can check that a worker keeps neither between requests. GET ?info=1 tells
 * the worker's pid, the backend, the pid that opened the device and what it keeps cached. */
if (isset($_GET['info'])) {
    $i = gpu_info();
    echo json_encode(['pid' => getmypid(), 'backend' => $i['backend'], 'device_pid' => $i['pid'],
                      'device' => $i['device']['name'] ?? null, 'cached' => $i['cached']]);
    return;
}
$seed = (int)($_GET['seed'] ?? 1);
mt_srand($seed);
$blobs = [];
for ($t = 0; $t < 8; $t++) {
    $postings = [];
    $doc = mt_rand(0, 1000);
    for ($d = 0; $d < mt_rand(1, 40); $d++) {
        $doc += mt_rand(1, 3000);
        $pos = [];
        $p = 0;
        for ($k = 0; $k < mt_rand(1, 8); $k++) {
            $p += mt_rand(1, 400);
            $pos[] = $p;
        }
        $postings[$doc] = $pos;
    }
    $blobs["t$t"] = gpu_encode_postings($postings, GPUPOST_MOD9, GPUPOST_POSTINGS);
}
$docs = [];
for ($i = 0, $x = 0; $i < 2000; $i++) {
    $docs[] = $x += mt_rand(0, 50);
}
$qs = gpu_encode_postings($docs, GPUPOST_QS);
$bins = [];
for ($b = 0; $b < 4; $b++) {
    $rows = [];
    for ($r = mt_rand(0, 9); $r < 5000; $r += mt_rand(1, 20)) $rows[] = $r;
    $bins[] = gpu_encode_postings($rows, GPUPOST_WAH, GPUPOST_VALUES, ['nbits' => 5000]);
}
$run = function () use ($blobs, $qs, $bins) {
    return [gpu_decode_postings_batch($blobs, GPUPOST_MOD9, GPUPOST_POSTINGS),
            gpu_decode_postings($qs, GPUPOST_QS), gpu_wah_query($bins, GPUPOST_OR)];
};
ini_set('gpupost.min_device_values', '0');           /* the pool's backend: device or host */
$got = $run();
$backend = gpu_info()['last_backend'];
ini_set('gpupost.min_device_values', (string)PHP_INT_MAX);
$want = $run();
if ($got !== $want || $got[1] !== $docs) {
    http_response_code(500);
    echo "MISMATCH on $backend\n";
    return;
}
ini_set('gpupost.min_device_values', '0');
$large = gpu_decode_postings(str_repeat(pack('N', 0x3FFFFFFF), 50000));   /* 24 ones a word */
$large_ok = count($large) === 1200000 && $large[0] === 1 && $large[1199999] === 1 && array_sum($large) === 1200000;
unset($large);
try {
    gpu_wah_decompress('GPWH' . "\x40\0\0\0" . pack('P', 1 << 40) . pack('P', (1 << 63) | intdiv((1 << 40) + 62, 63)));
    $large_ok = false;
} catch (GpuPost\Exception $e) {
}
if (!$large_ok) {
    http_response_code(500);
    echo "LARGE CALL WRONG on $backend\n";
    return;
}
echo 'OK ', md5(serialize($got)), "\n";
