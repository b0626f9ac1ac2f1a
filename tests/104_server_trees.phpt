--TEST--
gpupostd and query trees: MATCH expressions and array trees (prefixes, phrases, NEAR, ^, column filters, NOT) with every tree option (limit, offset, weights, filter, prior, order, total; a prior past the largest double) are answered by the server, equal to the worker's own (search, searchBatch, count; scores to 1e-9); trees of one index asked together with the same options share a batch; a killed server: auto answers in the worker, required throws
--EXTENSIONS--
gpupost
--INI--
gpupost.server=unix:/tmp/gpupost-104-test.sock
gpupost.server_timeout=3000
--SKIPIF--
<?php
$bin = getenv('GPUPOSTD') ?: __DIR__ . '/../server/gpupostd';
if (!is_executable($bin)) die("skip gpupostd is not built (make gpupostd)");
if (getenv('USE_ZEND_ALLOC') === '0') die("skip under valgrind: the server is checked by tests/server (ASan, TSan)");
?>
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
mt_srand(104);
$bin = getenv('GPUPOSTD') ?: __DIR__ . '/../server/gpupostd';
$sock = '/tmp/gpupost-104-test.sock';
$dir = sys_get_temp_dir() . '/gpupost-104-' . getmypid();
@mkdir($dir);

$words = [];
foreach (['ba', 'be', 'ca', 'co', 'da', 'de', 'fi', 'fo'] as $s) foreach (['', 'n', 'rt', 'st', 'sk'] as $e) $words[] = $s . $e;
$rows = $year = $rank = $big = [];
for ($d = 0; $d < 700; $d++) {
    $w = [];
    for ($k = mt_rand(3, 18); $k > 0; $k--) $w[] = $words[(int)(count($words) * (mt_rand(0, 999) / 1000) ** 2)];
    $rows[$d] = ['title' => implode(' ', array_slice($w, 0, 3)), 'body' => implode(' ', array_slice($w, 3))];
    if (mt_rand(0, 7)) $year[$d] = mt_rand(1990, 2025);
    $rank[$d] = mt_rand(0, 500) / 7;
    if (mt_rand(0, 3) == 0) $big[$d] = (mt_rand(0, 1) ? 1 : -1) * 1.5e308;   /* a prior of 2x: an infinity */
}
$built = GpuPost\Index::fromDocuments($rows, ['device' => 'host', 'attributes' => ['year' => $year, 'rank' => $rank, 'big' => $big]]);
$built->save("$dir/ix.gpix");

$device = gp_device_available();
[$proc] = gp_start_server($bin, $sock, $dir, $device);
$server = GpuPost\Index::open("$dir/ix.gpix", ['server' => 'required', 'device' => 'gpu']);
$worker = GpuPost\Index::open("$dir/ix.gpix", ['server' => false, 'device' => 'host']);
$auto = GpuPost\Index::open("$dir/ix.gpix", ['device' => 'gpu']);

function item(): string
{
    global $words;
    $w = $words[mt_rand(0, count($words) - 1)];
    return mt_rand(0, 3) ? $w : substr($w, 0, 2) . '*';
}
function tree(int $depth): string
{
    switch (mt_rand(0, $depth > 0 ? 7 : 3)) {
    case 0: return item();
    case 1: return '"' . item() . ' ' . item() . '"';
    case 2: return 'NEAR(' . item() . ' ' . item() . ', ' . mt_rand(0, 4) . ')';
    case 3: return ['title', 'body', '- title'][mt_rand(0, 2)] . ' : ' . item();
    case 4: return '^' . item();
    case 5: return '(' . tree($depth - 1) . ') OR (' . tree($depth - 1) . ')';
    case 6: return '(' . tree($depth - 1) . ') NOT (' . tree($depth - 1) . ')';
    default: return tree($depth - 1) . ' ' . tree($depth - 1);
    }
}
$options = [
    [],
    ['limit' => 5],
    ['limit' => 7, 'offset' => 2, 'weights' => ['title' => 3.0, 'body' => 0.5]],
    ['filter' => ['year' => [2000, 2015]]],
    ['limit' => 4, 'filter' => ['year' => ['in' => [1995, 2001, 2020]]], 'prior' => 'rank', 'prior_weight' => 0.25, 'total' => true],
    ['limit' => 6, 'order' => ['year' => 'asc'], 'total' => true, 'offset' => 1],
    ['limit' => 3, 'order' => 'rank'],
    ['limit' => 8, 'prior' => 'big', 'prior_weight' => 2.0],
];
/* the same answers: docs in order, scores to 1e-9 (NAN as NAN) */
function close($a, $b): bool
{
    if (!is_array($a) || !is_array($b)) return $a === $b;
    if (array_keys($a) !== array_keys($b)) return false;
    foreach ($a as $k => $v) {
        if (is_array($v)) {
            if (!close($v, $b[$k])) return false;
        } elseif (is_float($v) && is_float($b[$k])) {
            if (!(is_nan($v) ? is_nan($b[$k]) : (is_infinite($v) ? $v === $b[$k] : abs($v - $b[$k]) <= 1e-9 * max(1.0, abs($v))))) return false;
        } elseif ($v !== $b[$k]) {
            return false;
        }
    }
    return true;
}
$bad = $asked = 0;
function check(string $what, $got, $want, GpuPost\Index $ix, string $by): void
{
    global $bad, $asked;
    $asked++;
    if (!close($got, $want) || $ix->info()['answered_by'] !== $by) {
        if ($bad++ < 5) echo "$what: differs or answered by {$ix->info()['answered_by']}, not $by\n  ", json_encode($got), "\n  ", json_encode($want), "\n";
    }
}
$trees = [];
for ($i = 0; $i < 40; $i++) $trees["t$i"] = tree(mt_rand(0, 2));
$before = gpu_info()['server']['stats'];
$sent = 0;   /* the trees the server is asked */
foreach ($options as $o) {
    foreach (array_slice($trees, 0, 12) as $q) {
        check("search $q " . json_encode($o), $server->search($q, $o), $worker->search($q, $o), $server, 'server');
        $sent++;
        if (!isset($o['limit'])) {
            check("count $q " . json_encode($o), $server->count($q, $o), $worker->count($q, $o), $server, 'server');
            $sent++;
        }
    }
    check("batch " . json_encode($o), $server->searchBatch($trees, $o), $worker->searchBatch($trees, $o), $server, 'server');
    $sent += count($trees);
}
/* array trees, and a batch mixing them with lists of terms (all answered as trees) */
$arrays = [['and', ['prefix', 'ba'], ['or', 'de', ['phrase', 'co', 'fi']]], ['not', ['near', 2, 'ca', 'fo'], ['column', ['title'], 'be']], ['initial', 'da']];
foreach ([[], ['limit' => 5, 'total' => true]] as $o) {
    check("arrays " . json_encode($o), $server->searchBatch($arrays, $o + ['tree' => true]), $worker->searchBatch($arrays, $o + ['tree' => true]), $server, 'server');
    $sent += count($arrays);
}
$after = gpu_info()['server']['stats'];
echo "trees answered by the server as the worker answers them: ", $bad ? "no, $bad of $asked" : "yes, $asked asks", "\n";
var_dump($after['queries'] - $before['queries'] === $sent, $device ? $after['device_queries'] > $before['device_queries'] : $after['host_queries'] > $before['host_queries']);

/* a tree the server refuses (a column weight out of range is the face's ValueError first) */
echo gp_error_of(fn() => $server->search('ba', ['limit' => 2, 'weights' => [-1.0]])), "\n";

/* the server killed: auto answers in the worker, required throws */
proc_terminate($proc, 9);
proc_close($proc);
check("server down, auto", $auto->search('ba* NOT de', ['limit' => 5]), $worker->search('ba* NOT de', ['limit' => 5]), $auto, 'worker');
$e = gp_error_of(fn() => $server->search('"ba de"'));
var_dump(str_starts_with($e, 'GpuPost\Exception: gpupostd (/tmp/gpupost-104-test.sock)'));
var_dump($bad);
?>
--CLEAN--
<?php
foreach (glob(sys_get_temp_dir() . '/gpupost-104-[0-9]*', GLOB_ONLYDIR) as $d) {
    foreach (glob("$d/*") as $f) unlink($f);
    rmdir($d);
}
?>
--EXPECTF--
trees answered by the server as the worker answers them: yes, %d asks
bool(true)
bool(true)
ValueError: GpuPost\Index::search(): Argument #2 ($options) %s
bool(true)
int(0)
