--TEST--
Several devices in one process (gpupost.multi_device=all): batches of every format split over two and three devices, and an index sharded by docs over them, give the host's answers; a device that fails sends its share to another, or the call to the host
--EXTENSIONS--
gpupost
--SKIPIF--
<?php if (gpu_info()['backend'] !== 'opencl') die('skip no OpenCL device'); ?>
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';

/* The same work in this process (the host path) and in children with several devices: digests
 * of every answer, and what ran. */
const SPLIT_CASES = <<<'CODE'
function split_cases(string $place): array
{
    mt_srand(83);
    $out = [];
    $mod9 = $s9 = $qs = $vb = $gv = $wah = [];
    for ($i = 0; $i < 40; $i++) {
        $n = mt_rand(0, 3) ? mt_rand(1, 60) : mt_rand(200, 3000);   /* short lists and long ones */
        $mod9["m$i"] = gpu_encode_postings(rand_mod9_postings($n), GPUPOST_MOD9, GPUPOST_POSTINGS);
        $list = rand_byte_list($n, 1, 1 << 20);
        $s9[] = gpu_encode_postings($list, GPUPOST_S9, GPUPOST_VALUES, ['delta' => 1]);
        $qs[] = gpu_encode_postings($list, GPUPOST_QS);
        $vb[] = gpu_encode_postings($list, GPUPOST_VBYTE, GPUPOST_VALUES, ['delta' => 1]);
        $gv[] = gpu_encode_postings($list, GPUPOST_GROUP_VARINT, GPUPOST_VALUES, ['delta' => 1]);
        $wah[] = gpu_encode_postings(rand_wah_rows(mt_rand(1, 20000), 0.3), GPUPOST_WAH);
    }
    foreach ([GPUPOST_VALUES, GPUPOST_DOCS, GPUPOST_POSTINGS] as $mode) {
        $out["mod9 mode $mode"] = md5(serialize(gpu_decode_postings_batch($mod9, GPUPOST_MOD9, $mode)));
    }
    foreach (['s9' => [$s9, GPUPOST_S9], 'qs' => [$qs, GPUPOST_QS], 'vbyte' => [$vb, GPUPOST_VBYTE],
              'gvarint' => [$gv, GPUPOST_GROUP_VARINT], 'wah' => [$wah, GPUPOST_WAH]] as $name => [$blobs, $f]) {
        $out[$name] = md5(serialize(gpu_decode_postings_batch($blobs, $f)));
    }
    $out['backend'] = gpu_info()['last_backend'];
    /* a malformed blob among good ones: the host names it, whichever share held it */
    $bad = $s9;
    $bad[31] = substr($bad[31], 0, -4);
    $out['malformed'] = gp_error_of(fn() => gpu_decode_postings_batch($bad, GPUPOST_S9));

    /* an index: docs spread so that every shard holds part of most lists */
    $lists = $lens = [];
    for ($t = 0; $t < 30; $t++) {
        $picked = [];
        for ($i = 0, $df = mt_rand(1, 1500); $i < $df; $i++) $picked[mt_rand(0, 4999)] = true;
        ksort($picked);
        $l = [];
        foreach ($picked as $d => $_) {
            $pos = [];
            for ($i = 0, $np = mt_rand(1, 3); $i < $np; $i++) $pos[mt_rand(1, 40)] = true;
            ksort($pos);
            $l[$d] = array_keys($pos);
        }
        $lists["t$t"] = $l;
    }
    for ($d = 0; $d < 5000; $d++) $lens[$d] = mt_rand(1, 300);
    $ix = new GpuPost\Index($lists, GPUPOST_POSTINGS, ['device' => $place, 'doc_lengths' => $lens]);
    $queries = [];
    for ($q = 0; $q < 60; $q++) {
        $terms = [];
        for ($j = 0, $k = mt_rand(1, 3); $j < $k; $j++) $terms[] = 't' . mt_rand(0, 33);
        $queries["q$q"] = $terms;
    }
    foreach (['and' => GPUPOST_AND, 'or' => GPUPOST_OR, 'phrase' => GPUPOST_PHRASE] as $name => $op) {
        $out["index $name"] = md5(serialize($ix->searchBatch($queries, ['op' => $op])));
    }
    $out['index or top 10'] = md5(serialize($ix->searchBatch($queries, ['op' => GPUPOST_OR, 'limit' => 10])));
    $out['index and top 3'] = md5(serialize($ix->searchBatch($queries, ['op' => GPUPOST_AND, 'limit' => 3])));
    $out['index count'] = $ix->count(['t1', 't2'], ['op' => GPUPOST_OR]);
    $out['index backend'] = $ix->info()['last_backend'];
    $out['index shards'] = $ix->info()['device_shards'];
    return $out;
}
CODE;
eval(SPLIT_CASES);

$want = gp_on('host', fn() => split_cases('host'));
echo "host: ", $want['backend'], " ", $want['index backend'], " ", $want['index shards'], "\n";
echo $want['malformed'], "\n";

/* the same on this process's one device first: its answers are the host's too, and its kernels
 * are then in PoCL's cache (PoCL 3.1 can fail an assertion when contexts of one device compile
 * the same kernel at the same moment, which the children's shares would otherwise do) */
$one = gp_on('device', fn() => split_cases('all'));
$ran = ['backend' => 1, 'index backend' => 1, 'index shards' => 1];
echo "one device: ", array_diff_key($one, $ran) == array_diff_key($want, $ran) ? 'same answers' : 'DIFFERENT answers',
    ", ", $one['index shards'], " shards\n";

$info = gpu_info();
$me = $info['platform']['index'] . ':' . $info['device']['index'];
$child = SPLIT_CASES . '
$r = split_cases("all");
$i = gpu_info();
echo json_encode(["cases" => $r, "devices" => count($i["devices"]), "failures" => $i["device_failures"],
                  "rule" => $i["device_rule"]]);';

/* The same device listed two and three times (a context each: the split, the shards and their
 * merge run as with several devices, on any machine), and with PoCL several CPU devices. */
$runs = ["$me,$me" => [[], 2], "$me,$me,$me" => [[], 3]];
if (str_contains($info['platform']['name'], 'Portable Computing Language')) {
    $runs['cpu:all (POCL_DEVICES=pthread pthread)'] = [['POCL_DEVICES' => 'pthread pthread'], 2];
    $runs['cpu:all (POCL_DEVICES=pthread pthread pthread)'] = [['POCL_DEVICES' => 'pthread pthread pthread'], 3];
}
/* a host with several GPUs: all of them */
[$gpus] = gp_child('echo count(gpu_info()["devices"]);', ['gpupost.device' => 'gpu:all', 'gpupost.multi_device' => 'all'], 'device');
if ((int)$gpus >= 2) $runs['gpu:all'] = [[], (int)$gpus];
foreach ($runs as $spec => [$env, $n]) {
    $device = preg_replace('/ .*/', '', $spec);
    /* the faults are injected by the test build's hooks (GPUPOST_FAULT): a release build
     * (phpize && ./configure && make test, as a packager runs it) checks the split alone */
    $faults = $info['test_hooks'] ? ['' => 0, 'launch@1' => 1, 'launch' => 2] : ['' => 0];
    foreach ($faults as $fault => $kind) {
        $e = $env + ($fault !== '' ? ['GPUPOST_FAULT' => $fault] : []);
        [$out, $rc] = gp_child($child, ['gpupost.device' => $device, 'gpupost.multi_device' => 'all'], 'device', [], $e);
        $got = json_decode($out, true);
        if (!is_array($got)) {
            echo "$spec $fault: child failed ($rc): $out\n";
            continue;
        }
        $cases = $got['cases'];
        $same = array_diff_key($cases, $ran) == array_diff_key($want, $ran);
        $ok = $same && $got['devices'] === $n && $cases['index shards'] === $n && str_starts_with($got['rule'], "all $n devices");
        /* no fault: every device served; one failing: its shares went to another (the index
         * to the host); all failing: the host served */
        if ($kind === 0) $ok = $ok && $got['failures'] === 0 && $cases['backend'] === 'opencl' && $cases['index backend'] === 'opencl';
        if ($kind === 1) $ok = $ok && $got['failures'] > 0 && $cases['backend'] === 'opencl' && $cases['index backend'] === 'host';
        if ($kind === 2) $ok = $ok && $got['failures'] > 0 && $cases['backend'] === 'host' && $cases['index backend'] === 'host';
        if (!$ok) {
            echo "$spec $fault: differs\n";
            foreach ($cases as $k => $v) if (($want[$k] ?? null) !== $v) echo "  $k: ", json_encode($v), " want ", json_encode($want[$k] ?? null), "\n";
            echo "  devices {$got['devices']} failures {$got['failures']} rule {$got['rule']}\n";
        }
    }
}
echo "done\n";
?>
--EXPECTF--
host: host host 0
GpuPost\Exception: S9: blob 31, byte %d: %s
one device: same answers, 0 shards
done
