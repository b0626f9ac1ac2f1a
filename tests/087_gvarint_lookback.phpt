--TEST--
GROUP_VARINT on the device, its look-back composing: with windows of two tiles whose published states are not read (build option GP_GV_COMPOSE_TEST), every tile composes the maps before it back to its blob's start, as tiles do where many are in flight; lists of many tiles of every delta rule and value width, alone and in batches, equal to the host path; a damaged blob gives the host's exception
--EXTENSIONS--
gpupost
--SKIPIF--
<?php require __DIR__ . '/gpupost_test.inc'; if (!gp_device_available()) die('skip no OpenCL device: ' . gpu_info()['reason']); ?>
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
/* the child: random lists encoded, decoded on the device (gpupost.min_device_values=0) and on the
 * host, compared; prints what it checked */
$code = <<<'CODE'
mt_srand(87);
$host = fn(callable $f) => (function () use ($f) {
    ini_set('gpupost.min_device_values', (string)PHP_INT_MAX);
    try { return $f(); } finally { ini_set('gpupost.min_device_values', '0'); }
})();
$bad = $checked = 0;
$backends = [];
for ($r = 0; $r < 6; $r++) {
    $blobs = [];
    for ($i = 0; $i < 4; $i++) {
        $n = mt_rand(1, 3) === 1 ? mt_rand(0, 40) : mt_rand(20000, 90000);
        $delta = mt_rand(0, 2);
        $kind = mt_rand(0, 3);
        $list = [];
        for ($k = 0, $v = 0; $k < $n; $k++) {
            if ($delta === 0) {
                $list[] = [0, mt_rand(0, 255), mt_rand(0, 0xFFFFFF), mt_rand(0, 0xFFFFFFFF)][$kind];
            } else {
                $v += ($delta === 2 ? 1 : 0) + [0, mt_rand(0, 3), mt_rand(0, 300), mt_rand(0, 20000)][$kind];
                $list[] = $v;
            }
        }
        $b = gpu_encode_postings($list, GPUPOST_GROUP_VARINT, GPUPOST_VALUES, ['delta' => $delta]);
        $blobs["b$r.$i"] = $b;
        $d = gpu_decode_postings($b, GPUPOST_GROUP_VARINT);
        $backends[gpu_info()['last_backend']] = true;
        $checked++;
        if ($d !== $list || $host(fn() => gpu_decode_postings($b, GPUPOST_GROUP_VARINT)) !== $list) { echo "list $r.$i (n $n, rule $delta) differs\n"; $bad++; }
    }
    $d = gpu_decode_postings_batch($blobs, GPUPOST_GROUP_VARINT);
    if ($d !== $host(fn() => gpu_decode_postings_batch($blobs, GPUPOST_GROUP_VARINT))) { echo "batch $r differs\n"; $bad++; }
}
/* a damaged blob: a selector's bit flipped deep in a long list */
$b = $blobs['b5.0'] ?? end($blobs);
$b[intdiv(strlen($b), 2)] = chr(ord($b[intdiv(strlen($b), 2)]) ^ 0x40);
$e = fn(callable $f) => (function () use ($f) { try { $f(); return 'no exception'; } catch (Throwable $x) { return $x->getMessage(); } })();
$hd = $host(fn() => $e(fn() => gpu_decode_postings($b, GPUPOST_GROUP_VARINT)));
$dd = $e(fn() => gpu_decode_postings($b, GPUPOST_GROUP_VARINT));
echo "damaged: ", $hd === $dd ? 'the same outcome' : "host '$hd', device '$dd'", "\n";
echo "backends: ", implode(',', array_keys($backends)), "\n";
echo "checked $checked lists, mismatches: $bad\n";
CODE;
[$out, $rc] = gp_child($code, ['memory_limit' => '1G'], 'device', [], ['GPUPOST_CL_OPTIONS' => '-DGP_GV_COMPOSE_TEST']);
echo $out, "\n", "exit: $rc\n";
?>
--EXPECT--
damaged: the same outcome
backends: opencl
checked 24 lists, mismatches: 0
exit: 0
