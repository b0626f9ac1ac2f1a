--TEST--
gpupostd (gpupost.server): open() with 'server' sends device-bound queries to the server and keeps host-bound ones in the worker; answers equal to the worker's own (search, searchBatch, count; AND, OR, phrase, ranked); info()['answered_by'] and gpu_info()['server'] say who answered; a file outside the server's directories, a killed server (auto answers in the worker, required throws) and a restarted one (used again)
--EXTENSIONS--
gpupost
--INI--
gpupost.server=unix:/tmp/gpupost-095-test.sock
gpupost.server_timeout=3000
--SKIPIF--
<?php
$bin = getenv('GPUPOSTD') ?: __DIR__ . '/../server/gpupostd';
if (!is_executable($bin)) die("skip gpupostd is not built (make gpupostd)");
/* under valgrind (run-tests -m traces children) the server would run under it too, too slow to
 * serve within the test's timeouts; tests/server checks the server under ASan and TSan */
if (getenv('USE_ZEND_ALLOC') === '0') die("skip under valgrind: the server is checked by tests/server (ASan, TSan)");
?>
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
mt_srand(95);
$bin = getenv('GPUPOSTD') ?: __DIR__ . '/../server/gpupostd';
$sock = '/tmp/gpupost-095-test.sock';
$dir = sys_get_temp_dir() . '/gpupost-095-' . getmypid();
$outside = "$dir-outside";
@mkdir($dir);
@mkdir($outside);

$lists = [];
for ($t = 0; $t < 30; $t++) {
    $p = [];
    for ($i = mt_rand(1, 400); $i > 0; $i--) {
        $pos = [];
        for ($j = mt_rand(1, 3), $x = 0; $j > 0; $j--) $pos[] = $x += mt_rand(1, 4);
        $p[mt_rand(0, 3000)] = $pos;
    }
    ksort($p);
    $lists["t$t"] = gpu_encode_postings($p, GPUPOST_MOD9, GPUPOST_POSTINGS);
}
$lens = [];
for ($d = 0; $d <= 3000; $d++) $lens[$d] = mt_rand(1, 60);
$built = new GpuPost\Index($lists, GPUPOST_MOD9, ['device' => 'host', 'doc_lengths' => $lens]);
$built->save("$dir/ix.gpix");
$built->save("$outside/ix.gpix");

/* with a device here, the server batches every query for it; else its host threads answer */
$device = gp_device_available();
function start_server(): array {
    global $bin, $sock, $dir, $device;
    return gp_start_server($bin, $sock, $dir, $device);
}
function stop_server($proc, int $pid, int $signal): void {
    proc_terminate($proc, $signal);
    proc_close($proc);
}
[$proc, $pid] = start_server();

$queries = [];
for ($q = 0; $q < 30; $q++) {
    $terms = [];
    for ($i = mt_rand(1, 3); $i > 0; $i--) $terms[] = 't' . mt_rand(0, 31);   /* t30, t31: unknown */
    $queries["q$q"] = $terms;
}
$kinds = [['op' => GPUPOST_AND], ['op' => GPUPOST_OR], ['op' => GPUPOST_PHRASE], ['op' => GPUPOST_AND, 'limit' => 5], ['op' => GPUPOST_OR, 'limit' => 10]];

/* 'device' => 'gpu': every query is device-bound; the worker's own copy stays on the host */
$server = GpuPost\Index::open("$dir/ix.gpix", ['server' => 'required', 'device' => 'gpu']);
$worker = GpuPost\Index::open("$dir/ix.gpix", ['server' => false, 'device' => 'host']);
$auto = GpuPost\Index::open("$dir/ix.gpix");
var_dump($server->info()['server'], $worker->info()['server'], $auto->info()['server'], $server->info()['answered_by']);
$bad = 0;
function same(string $what, $got, $want, GpuPost\Index $ix, string $by): void {
    global $bad;
    if ($got !== $want || $ix->info()['answered_by'] !== $by) {
        echo "$what: differs or answered by {$ix->info()['answered_by']}, not $by\n";
        $bad++;
    }
}
foreach ($kinds as $k) {
    $want = $built->searchBatch($queries, $k);
    same("batch " . json_encode($k), $server->searchBatch($queries, $k), $want, $server, 'server');
    same("batch " . json_encode($k), $worker->searchBatch($queries, $k), $want, $worker, 'worker');
    foreach (array_slice($queries, 0, 6) as $terms) {
        same("search", $server->search($terms, $k), $built->search($terms, $k), $server, 'server');
        same("count", $server->count($terms, $k), $built->count($terms, $k), $server, 'server');
    }
}
var_dump($server->info()['bytes_device'], $bad);

/* auto: host-bound (under gpupost.min_device_values) in the worker, device-bound to the server */
ini_set('gpupost.min_device_values', PHP_INT_MAX);
same("auto, host-bound", $auto->search(['t1', 't2'], ['op' => GPUPOST_OR]), $built->search(['t1', 't2'], ['op' => GPUPOST_OR]), $auto, 'worker');
ini_set('gpupost.min_device_values', '0');
same("auto, device-bound", $auto->search(['t1', 't2'], ['op' => GPUPOST_OR]), $built->search(['t1', 't2'], ['op' => GPUPOST_OR]), $auto, 'server');

$info = gpu_info()['server'];
var_dump($info['connected'], $info['stats']['queries'] === 5 * (30 + 6 + 6) + 1, count($info['indexes']), $info['indexes'][0]['path'] === realpath("$dir/ix.gpix"));
var_dump($device ? $info['stats']['device_queries'] > 0 : $info['stats']['host_queries'] > 0);

/* a file outside the server's directories: required refuses, auto answers in the worker */
echo gp_error_of(fn() => GpuPost\Index::open("$outside/ix.gpix", ['server' => 'required'])), "\n";
$elsewhere = GpuPost\Index::open("$outside/ix.gpix");
same("outside", $elsewhere->search(['t3'], ['op' => GPUPOST_OR]), $built->search(['t3'], ['op' => GPUPOST_OR]), $elsewhere, 'worker');

/* the server killed: auto answers in the worker, required throws; restarted: used again */
stop_server($proc, $pid, 9);
same("server down, auto", $auto->searchBatch($queries), $built->searchBatch($queries), $auto, 'worker');
$e = gp_error_of(fn() => $server->searchBatch($queries));
var_dump(str_starts_with($e, 'GpuPost\Exception: gpupostd (/tmp/gpupost-095-test.sock)'));
var_dump(gpu_info()['server']['connected']);
[$proc, $pid] = start_server();
$by = '';
for ($i = 0; $i < 60 && $by !== 'server'; $i++) {
    usleep(100000);
    $got = $auto->searchBatch($queries, ['op' => GPUPOST_OR, 'limit' => 3]);
    $by = $auto->info()['answered_by'];
}
same("restarted", $got, $built->searchBatch($queries, ['op' => GPUPOST_OR, 'limit' => 3]), $auto, 'server');
same("restarted, required", $server->search(['t4', 't5']), $built->search(['t4', 't5']), $server, 'server');
/* the file replaced under the workers' copies (the same terms and docs, t1 and t2 swapped): an
 * index opened now is answered from the new file; one opened before never from the server's copy
 * of another file: auto answers from its own, required throws */
$swapped = $lists;
[$swapped['t1'], $swapped['t2']] = [$lists['t2'], $lists['t1']];
$built2 = new GpuPost\Index($swapped, GPUPOST_MOD9, ['device' => 'host', 'doc_lengths' => $lens]);
$built2->save("$dir/new.gpix");
rename("$dir/new.gpix", "$dir/ix.gpix");
$fresh = GpuPost\Index::open("$dir/ix.gpix", ['server' => 'required', 'device' => 'gpu']);
same("replaced, opened after", $fresh->search(['t1']), $built2->search(['t1']), $fresh, 'server');
same("replaced, auto opened before", $auto->search(['t1']), $built->search(['t1']), $auto, 'worker');
echo gp_error_of(fn() => $server->search(['t1'])), "\n";
stop_server($proc, $pid, 15);
var_dump($bad);
?>
--CLEAN--
<?php
$dir = sys_get_temp_dir() . '/gpupost-095-';
foreach (glob("$dir*") as $d) {
    foreach (glob("$d/*") as $f) unlink($f);
    rmdir($d);
}
?>
--EXPECTF--
string(8) "required"
string(4) "none"
string(4) "auto"
NULL
int(0)
int(0)
bool(true)
bool(true)
int(1)
bool(true)
bool(true)
GpuPost\Exception: gpupostd (/tmp/gpupost-095-test.sock) cannot open %s/ix.gpix: the index file %s is not under the server's allowed directories
bool(true)
bool(false)
GpuPost\Exception: gpupostd (/tmp/gpupost-095-test.sock): the server opened another file than the worker's copy (the file was replaced: open the index again)
int(0)
