--TEST--
GpuPost\Index: random indexes and query logs, host and device answers (lists resident decoded or compressed) equal a plain PHP reference (AND, OR, phrase; unknown and repeated terms; batches)
--EXTENSIONS--
gpupost
--FILE--
<?php
mt_srand(70);

/* [term => [doc => [positions]]] with list lengths spread from 1 to most docs */
function random_index(int $terms, int $docs, int $maxpos): array {
    $lists = [];
    for ($t = 0; $t < $terms; $t++) {
        $df = max(1, (int)($docs / (1 + $t % 17) * mt_rand(1, 100) / 100));
        $picked = [];
        for ($i = 0; $i < $df; $i++) $picked[mt_rand(0, $docs - 1)] = true;
        ksort($picked);
        $list = [];
        foreach ($picked as $d => $_) {
            $n = mt_rand(1, 4);
            $pos = [];
            for ($i = 0; $i < $n; $i++) $pos[mt_rand(1, $maxpos)] = true;
            ksort($pos);
            $list[$d] = array_keys($pos);
        }
        $lists["t$t"] = $list;
    }
    return $lists;
}

function ref_query(array $lists, array $terms, int $op): array {
    $have = [];
    foreach ($terms as $t) {
        if (!isset($lists[$t])) { if ($op !== GPUPOST_OR) return []; continue; }
        $have[] = $t;
    }
    if (!$have) return [];
    if ($op === GPUPOST_OR) {
        $u = [];
        foreach (array_unique($have) as $t) $u += $lists[$t];
        ksort($u);
        return array_keys($u);
    }
    $docs = $lists[$have[0]];
    foreach (array_unique($have) as $t) $docs = array_intersect_key($docs, $lists[$t]);
    $out = [];
    foreach ($docs as $d => $_) {
        if ($op === GPUPOST_PHRASE) {
            $ok = false;
            foreach ($lists[$terms[0]][$d] as $p) {
                $all = true;
                for ($j = 1; $j < count($terms); $j++) {
                    if (!in_array($p + $j, $lists[$terms[$j]][$d], true)) { $all = false; break; }
                }
                if ($all) { $ok = true; break; }
            }
            if (!$ok) continue;
        }
        $out[] = $d;
    }
    sort($out);
    return $out;
}

$device = gpu_info()['backend'] === 'opencl';
$bad = 0;
foreach ([[40, 300, 6], [25, 3000, 40], [8, 20, 3]] as [$nt, $nd, $mp]) {
    $lists = random_index($nt, $nd, $mp);
    $host = new GpuPost\Index($lists, GPUPOST_POSTINGS, ['device' => 'host']);
    $on = ['device' => $device ? 'cpu' : 'host'];
    $packed = $on + ['device_lists' => 'compressed'];
    $dev = new GpuPost\Index($lists, GPUPOST_POSTINGS, $on);
    $devc = new GpuPost\Index($lists, GPUPOST_POSTINGS, $packed);
    $s9 = $qs = [];
    foreach ($lists as $t => $l) {
        $s9[$t] = gpu_encode_postings(array_keys($l), GPUPOST_S9, GPUPOST_VALUES, ['delta' => 1]);
        $qs[$t] = gpu_encode_postings(array_keys($l), GPUPOST_QS);
    }
    $docsonly = new GpuPost\Index($s9, GPUPOST_S9, $on);
    $docsonly_c = [new GpuPost\Index($s9, GPUPOST_S9, $packed), new GpuPost\Index($qs, GPUPOST_QS, $packed)];
    $queries = [];
    for ($q = 0; $q < 150; $q++) {
        $n = mt_rand(1, 4);
        $terms = [];
        for ($i = 0; $i < $n; $i++) {
            $r = mt_rand(0, 19);
            $terms[] = $r == 0 ? "unknown$i" : ($r == 1 && $terms ? $terms[0] : 't' . mt_rand(0, $nt - 1));
        }
        $queries["q$q"] = $terms;
    }
    foreach ([GPUPOST_AND, GPUPOST_OR, GPUPOST_PHRASE] as $op) {
        $opts = ['op' => $op];
        $batch_h = $host->searchBatch($queries, $opts);
        $batch_d = $dev->searchBatch($queries, $opts);
        if ($devc->searchBatch($queries, $opts) !== $batch_h) { echo "op $op: compressed MOD9 lists differ\n"; $bad++; }
        if ($op !== GPUPOST_PHRASE) {
            $batch_s = $docsonly->searchBatch($queries, $opts);
            foreach ($docsonly_c as $c) {
                if ($c->searchBatch($queries, $opts) !== $batch_h) { echo "op $op: compressed ", $c->info()['format'], " lists differ\n"; $bad++; }
            }
        }
        if (array_keys($batch_h) !== array_keys($queries)) { echo "keys lost\n"; $bad++; }
        foreach ($queries as $k => $terms) {
            $want = ref_query($lists, $terms, $op);
            $one = $host->search($terms, $opts);
            if ($one !== $want || $batch_h[$k] !== $want || $batch_d[$k] !== $want ||
                ($op !== GPUPOST_PHRASE && $batch_s[$k] !== $want) || $dev->count($terms, $opts) !== count($want)) {
                if ($bad++ < 5) echo "op $op ", json_encode($terms), ": want ", json_encode($want), " host ", json_encode($batch_h[$k]), " device ", json_encode($batch_d[$k]), "\n";
            }
        }
    }
    foreach ([$dev, $devc, ...$docsonly_c] as $ix) {
        if ($device && $ix->info()['last_backend'] !== 'opencl') { echo "device index answered on ", $ix->info()['last_backend'], "\n"; $bad++; }
    }
    /* the default: decoded, as the device has room for it */
    if ($devc->info()['device_lists'] !== 'compressed' || $dev->info()['device_lists'] !== ($device ? 'decoded' : 'auto')) { echo "device_lists\n"; $bad++; }
    if ($device && $devc->info()['bytes_device'] >= $dev->info()['bytes_device']) { echo "compressed lists not smaller\n"; $bad++; }
    if ($host->info()['last_backend'] !== 'host') { echo "host index left the host\n"; $bad++; }
    if (count($host) !== $nt || $host->info()['postings'] !== array_sum(array_map('count', $lists))) { echo "counts\n"; $bad++; }
}
/* phrases longer than the places a device work-item keeps (8): 11 terms at consecutive
 * positions in docs 5 and 12, one place off in doc 9 */
$long = [];
foreach (range(0, 10) as $i) {
    $long["w$i"] = [5 => [10 + $i], 9 => [$i == 7 ? 40 : 20 + $i], 12 => [1 + $i, 50 + ($i % 3)]];
}
$lh = new GpuPost\Index($long, GPUPOST_POSTINGS, ['device' => 'host']);
$ld = new GpuPost\Index($long, GPUPOST_POSTINGS, ['device' => $device ? 'cpu' : 'host']);
$phr = ['all' => array_keys($long), 'rev' => array_reverse(array_keys($long)), 'tail' => array_slice(array_keys($long), 2)];
$want = ['all' => [5, 12], 'rev' => [], 'tail' => [5, 12]];
foreach ([$lh, $ld] as $ix) {
    if ($ix->searchBatch($phr, ['op' => GPUPOST_PHRASE]) !== $want) { echo "long phrases: ", json_encode($ix->searchBatch($phr, ['op' => GPUPOST_PHRASE])), "\n"; $bad++; }
}

/* a batch split into many device launches (GPUPOST_INDEX_CHUNK candidates each) */
require __DIR__ . '/gpupost_test.inc';
putenv('GPUPOST_INDEX_CHUNK=40');
[$out] = gp_child('mt_srand(7); $l = [];
    for ($t = 0; $t < 30; $t++) { $d = []; for ($i = 0; $i < 60; $i++) $d[mt_rand(0, 400)] = [mt_rand(1, 3)]; ksort($d); $l["t$t"] = $d; }
    $h = new GpuPost\Index($l, GPUPOST_POSTINGS, ["device" => "host"]);
    $on = ["device" => gpu_info()["backend"] === "opencl" ? "cpu" : "host"];
    $d = new GpuPost\Index($l, GPUPOST_POSTINGS, $on);
    $c = new GpuPost\Index($l, GPUPOST_POSTINGS, $on + ["device_lists" => "compressed"]);
    $q = []; for ($i = 0; $i < 300; $i++) $q[] = ["t" . mt_rand(0, 29), "t" . mt_rand(0, 29)];
    $same = true;
    foreach ([GPUPOST_AND, GPUPOST_OR, GPUPOST_PHRASE] as $op) {
        $want = $h->searchBatch($q, ["op" => $op]);
        $same = $same && $want === $d->searchBatch($q, ["op" => $op]) && $want === $c->searchBatch($q, ["op" => $op]);
    }
    echo $same ? "chunked batches equal" : "chunked batches DIFFER";', []);
putenv('GPUPOST_INDEX_CHUNK');
echo $out, "\n";

/* lists whose decode merges equal docs in a row (Yioop's combined form can make them): the
 * compressed device path takes those lists decoded from the host, beside lists it decodes */
$p = fn(array $l) => gpu_encode_postings($l, GPUPOST_MOD9, GPUPOST_POSTINGS);
$merged = [
    'a' => $p([3 => [1]]) . $p([5 => [4, 9]]) . $p([5 => [2, 4]]) . $p([8 => [1, 2]]),
    'b' => $p([2 => [7], 5 => [3, 10], 8 => [3]]),
    'c' => $p([5 => [5, 11], 8 => [2]]) . $p([8 => [9]]),
];
$mq = [['a', 'b'], ['b', 'a'], ['a', 'b', 'c'], ['c', 'a'], ['b', 'c'], ['a'], ['c']];
$mh = new GpuPost\Index($merged, GPUPOST_MOD9, ['device' => 'host']);
$mc = new GpuPost\Index($merged, GPUPOST_MOD9, ['device' => $device ? 'cpu' : 'host', 'device_lists' => 'compressed']);
foreach ([GPUPOST_AND, GPUPOST_OR, GPUPOST_PHRASE] as $op) {
    $want = $mh->searchBatch($mq, ['op' => $op]);
    if ($mc->searchBatch($mq, ['op' => $op]) !== $want) { echo "op $op: merged lists differ: ", json_encode($mc->searchBatch($mq, ['op' => $op])), " want ", json_encode($want), "\n"; $bad++; }
}
echo json_encode($mh->searchBatch($mq, ['op' => GPUPOST_PHRASE])), "\n";
echo $bad ? "FAILED $bad\n" : "all equal\n";
?>
--EXPECT--
chunked batches equal
[[5,8],[5],[5],[],[5],[3,5,8],[5,8]]
all equal
