--TEST--
GpuPost\Index ranked (BM25, 'limit'): random indexes, k of 1, 10, 1000 and more than the matches; host and device (lists decoded and compressed, MOD9, S9, QS, split batches) equal each other exactly and a plain PHP BM25 top k; ties by the smaller doc; bad options
--EXTENSIONS--
gpupost
--ENV--
GPUPOST_INDEX_PRUNE_MIN=1
GPUPOST_TOPK_TILE=640
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
mt_srand(77);

$device = gpu_info()['backend'] === 'opencl';
$on = ['device' => $device ? 'cpu' : 'host'];
$bad = 0;
foreach ([[30, 400, 6], [12, 3000, 3]] as [$nt, $nd, $mp]) {
    $lists = $len = [];
    for ($d = 0; $d < $nd; $d++) $len[$d] = mt_rand(0, 2) ? mt_rand(1, 60) : 20;   /* equal lengths: ties */
    for ($t = 0; $t < $nt; $t++) {
        $df = max(1, (int)($nd / (1 + $t % 7) * mt_rand(1, 100) / 100));
        $l = [];
        for ($i = 0; $i < $df; $i++) $l[mt_rand(0, $nd - 1)] = true;
        ksort($l);
        foreach ($l as $d => $_) {
            $pos = [];
            for ($i = mt_rand(1, $mp); $i > 0; $i--) $pos[mt_rand(1, 80)] = true;
            ksort($pos);
            $l[$d] = array_keys($pos);
        }
        $lists["t$t"] = $l;
    }
    $opts = ['doc_lengths' => $len];
    $s9 = $qs = $docs_only = [];
    foreach ($lists as $t => $l) {
        $s9[$t] = gpu_encode_postings(array_keys($l), GPUPOST_S9, GPUPOST_VALUES, ['delta' => 1]);
        $qs[$t] = gpu_encode_postings(array_keys($l), GPUPOST_QS);
        $docs_only[$t] = array_fill_keys(array_keys($l), 1);
    }
    $host = new GpuPost\Index($lists, GPUPOST_POSTINGS, $opts + ['device' => 'host']);
    $others = [
        'device' => new GpuPost\Index($lists, GPUPOST_POSTINGS, $opts + $on),
        'device, compressed' => new GpuPost\Index($lists, GPUPOST_POSTINGS, $opts + $on + ['device_lists' => 'compressed']),
    ];
    $s9_host = new GpuPost\Index($s9, GPUPOST_S9, $opts + ['device' => 'host']);
    $docs_others = [
        'S9 device' => new GpuPost\Index($s9, GPUPOST_S9, $opts + $on),
        'S9 device, compressed' => new GpuPost\Index($s9, GPUPOST_S9, $opts + $on + ['device_lists' => 'compressed']),
        'QS device, compressed' => new GpuPost\Index($qs, GPUPOST_QS, $opts + $on + ['device_lists' => 'compressed']),
    ];
    $queries = [];
    for ($q = 0; $q < 60; $q++) {
        $terms = [];
        for ($i = mt_rand(1, 4); $i > 0; $i--) {
            $r = mt_rand(0, 19);
            $terms[] = $r == 0 ? 'unknown' : ($r == 1 && $terms ? $terms[0] : 't' . mt_rand(0, $nt - 1));
        }
        $queries["q$q"] = $terms;
    }
    foreach ([1, 10, 1000, 100000] as $k) {
        foreach ([GPUPOST_AND, GPUPOST_OR] as $op) {
            $o = ['op' => $op, 'limit' => $k];
            $h = $host->searchBatch($queries, $o);
            $sh = $s9_host->searchBatch($queries, $o);
            foreach ($queries as $key => $terms) {
                $want = ref_bm25_top($lists, $len, $terms, $op === GPUPOST_OR, $k);
                $want1 = ref_bm25_top($docs_only, $len, $terms, $op === GPUPOST_OR, $k);
                if (!close_to($h[$key], $want) || $host->search($terms, $o) !== $h[$key] || $host->count($terms, $o) !== count($want)) {
                    if ($bad++ < 5) echo "k $k op $op ", json_encode($terms), ": host ", json_encode($h[$key]), " want ", json_encode($want), "\n";
                }
                if (!close_to($sh[$key], $want1)) {
                    if ($bad++ < 5) echo "k $k op $op ", json_encode($terms), ": S9 host ", json_encode($sh[$key]), " want ", json_encode($want1), "\n";
                }
            }
            foreach ($others as $name => $ix) {
                if ($ix->searchBatch($queries, $o) !== $h) { echo "k $k op $op: $name differs from the host\n"; $bad++; }
            }
            foreach ($docs_others as $name => $ix) {
                if ($ix->searchBatch($queries, $o) !== $sh) { echo "k $k op $op: $name differs from the host\n"; $bad++; }
            }
        }
    }
    foreach ([...$others, ...$docs_others] as $name => $ix) {
        if ($device && $ix->info()['last_backend'] !== 'opencl') { echo "$name answered on ", $ix->info()['last_backend'], "\n"; $bad++; }
    }
}

/* (GPUPOST_INDEX_PRUNE_MIN=1: the device prunes every ranked OR batch here, as it does large
 * ones; the other ranked tests' small batches go unpruned. GPUPOST_TOPK_TILE=640: k up to 10
 * selected in tiles of 640 candidates, as large queries' are in tiles of 16k.)
 * OR where the device prunes (lists whose bounds cannot lift a doc past the AND's k-th best):
 * a rare pair in 40 docs, terms of every frequency beside it, some of whose docs alone score
 * near the pair's */
$l = $len = [];
for ($d = 0; $d < 3000; $d++) $len[$d] = mt_rand(5, 200);
for ($d = 0; $d < 40; $d++) { $l['r1'][$d * 7] = [1]; $l['r2'][$d * 7] = [2, 3]; }
foreach (['m1' => 60, 'm2' => 150, 'c1' => 600, 'c2' => 1500] as $t => $df) {
    $docs = array_rand(array_fill(0, 3000, 0), $df);
    foreach ($docs as $d) $l[$t][$d] = range(1, mt_rand(1, 6));
}
foreach ($l as &$list) ksort($list);
unset($list);
$pq = [['r1', 'r2', 'm1'], ['r1', 'r2', 'c1'], ['r1', 'r2', 'm2', 'c2'], ['r2', 'r1', 'c1', 'c2'], ['m1', 'r1', 'r2'], ['r1', 'r2']];
$ph = new GpuPost\Index($l, GPUPOST_POSTINGS, ['doc_lengths' => $len, 'device' => 'host']);
$pd = new GpuPost\Index($l, GPUPOST_POSTINGS, ['doc_lengths' => $len] + $on);
foreach ([1, 10, 30] as $k) {
    $o = ['op' => GPUPOST_OR, 'limit' => $k];
    $dev = $pd->searchBatch($pq, $o);
    foreach ($pq as $i => $terms) {
        $want = ref_bm25_top($l, $len, $terms, true, $k);
        if (!close_to($dev[$i], $want) || $ph->search($terms, $o) !== $dev[$i]) {
            if ($bad++ < 5) echo "pruned OR k $k ", json_encode($terms), ": device ", json_encode($dev[$i]), " want ", json_encode($want), "\n";
        }
    }
}

/* k1 and b, saved with the lengths; a batch split into launches */
$l = ['a' => [1 => [1, 2, 3], 4 => [7], 9 => [1, 5]], 'b' => [4 => [2, 3], 9 => [9], 11 => [1]]];
$len = [1 => 30, 4 => 5, 9 => 12, 11 => 8, 20 => 100];
$ix = new GpuPost\Index($l, GPUPOST_POSTINGS, ['doc_lengths' => $len, 'k1' => 2.0, 'b' => 0.3, 'device' => 'host']);
$want = ref_bm25_top($l, $len, ['a', 'b'], true, 10, 2.0, 0.3);
$path = sys_get_temp_dir() . '/gpupost-077-' . getmypid() . '.gpix';
$ix->save($path);
$back = GpuPost\Index::open($path, $on);
echo "k1 and b: ", close_to($ix->search(['a', 'b'], ['op' => GPUPOST_OR, 'limit' => 10]), $want) &&
    $back->search(['a', 'b'], ['op' => GPUPOST_OR, 'limit' => 10]) === $ix->search(['a', 'b'], ['op' => GPUPOST_OR, 'limit' => 10]) ? "kept" : "LOST", "\n";
unlink($path);
putenv('GPUPOST_INDEX_CHUNK=40');
[$out] = gp_child('mt_srand(9); $l = []; $len = [];
    for ($d = 0; $d <= 400; $d++) $len[$d] = 1 + $d % 13;
    for ($t = 0; $t < 30; $t++) { $d = []; for ($i = 0; $i < 60; $i++) $d[mt_rand(0, 400)] = [mt_rand(1, 3)]; ksort($d); $l["t$t"] = $d; }
    $h = new GpuPost\Index($l, GPUPOST_POSTINGS, ["device" => "host", "doc_lengths" => $len]);
    $d = new GpuPost\Index($l, GPUPOST_POSTINGS, ["device" => gpu_info()["backend"] === "opencl" ? "cpu" : "host", "doc_lengths" => $len]);
    $q = []; for ($i = 0; $i < 300; $i++) $q[] = ["t" . mt_rand(0, 29), "t" . mt_rand(0, 29)];
    $same = true;
    foreach ([GPUPOST_AND, GPUPOST_OR] as $op) $same = $same && $h->searchBatch($q, ["op" => $op, "limit" => 5]) === $d->searchBatch($q, ["op" => $op, "limit" => 5]);
    echo $same ? "split ranked batches equal" : "split ranked batches DIFFER";', []);
putenv('GPUPOST_INDEX_CHUNK');
echo $out, "\n";

/* refused: no lengths, a phrase, a doc of the lists without a length, bad k1 and b */
$plain = new GpuPost\Index($l, GPUPOST_POSTINGS);
foreach ([
    fn() => $plain->search(['a'], ['limit' => 3]),
    fn() => $ix->search(['a', 'b'], ['op' => GPUPOST_PHRASE, 'limit' => 3]),
    fn() => new GpuPost\Index($l, GPUPOST_POSTINGS, ['doc_lengths' => [1 => 3, 4 => 2, 9 => 1]]),
    fn() => new GpuPost\Index($l, GPUPOST_POSTINGS, ['doc_lengths' => $len, 'b' => 1.5]),
    fn() => new GpuPost\Index($l, GPUPOST_POSTINGS, ['doc_lengths' => $len, 'k1' => -1]),
    fn() => new GpuPost\Index($l, GPUPOST_POSTINGS, ['k1' => 1.0]),
    fn() => new GpuPost\Index($l, GPUPOST_POSTINGS, ['doc_lengths' => ['x' => 3]]),
    fn() => new GpuPost\Index($l, GPUPOST_POSTINGS, ['doc_lengths' => [1 => -3]]),
    fn() => new GpuPost\Index($l, GPUPOST_POSTINGS, ['doc_lengths' => $len + [4000000000 => 1]]),
    fn() => new GpuPost\Index($l, GPUPOST_POSTINGS, ['doc_lengths' => [4 => 0] + $len]),
] as $f) {
    try { $f(); echo "accepted!\n"; } catch (Throwable $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
}
echo $bad ? "FAILED $bad\n" : "all equal\n";
?>
--EXPECT--
k1 and b: kept
split ranked batches equal
ValueError: GpuPost\Index::search(): Argument #2 ($options) option 'limit' needs doc lengths: build the index with 'doc_lengths' => [doc => tokens]
ValueError: GpuPost\Index::search(): Argument #2 ($options) option 'limit' ranks AND and OR queries, not phrases
ValueError: GpuPost\Index::__construct(): Argument #3 ($options) option 'doc_lengths': doc 11 (of list 1) has no length
ValueError: GpuPost\Index::__construct(): Argument #3 ($options) option 'b' must be between 0 and 1
ValueError: GpuPost\Index::__construct(): Argument #3 ($options) option 'k1' must be a number from 0 to 1e6
ValueError: GpuPost\Index::__construct(): Argument #3 ($options) options 'k1' and 'b' need 'doc_lengths' (they shape BM25's ranking)
ValueError: GpuPost\Index::__construct(): Argument #3 ($options) option 'doc_lengths' must be keyed by docs (ints 0 to 2^32 - 2)
ValueError: GpuPost\Index::__construct(): Argument #3 ($options) option 'doc_lengths' must map doc 1 to its tokens (an int 0 to 2^32 - 2)
GpuPost\Exception: the doc lengths would need 16000000004 bytes, more than gpupost.max_result_bytes (1073741824)
ValueError: GpuPost\Index::__construct(): Argument #3 ($options) option 'doc_lengths': doc 4 (of list 0) has length 0
all equal
