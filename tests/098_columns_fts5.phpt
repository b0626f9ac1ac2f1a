--TEST--
Documents with columns (GpuPost\Index::fromDocuments): random query trees with column filters ({a b} : x, - a : x, a : (...), array trees' 'column') match FTS5's MATCH on a table of the same columns, and their top 10 by bm25() with random column weights equal FTS5's bm25(t, w...) (same docs, same order, scores to 1e-9), built and on a saved file opened in place
--EXTENSIONS--
gpupost
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
$code = <<<'CODE'
require $argv[1] . '/demo/corpus.php';
/* the sanitizer and valgrind runs (Zend's allocator off: USE_ZEND_ALLOC=0, and valgrind follows
 * this child) ask fewer: the same checks, on a part of the inputs */
$light = ($argv[2] ?? '') === 'light';
mt_srand(98);
[$files] = demo_corpus(300);
$docs = array_values(array_filter(array_map(fn($p) => demo_tokens((string)file_get_contents($p)), $files), fn($w) => count($w) > 8));
/* each doc's first words its title, the rest its body, and a note of a few words from others */
$rows = [];
foreach ($docs as $d => $w) {
    $cut = mt_rand(3, 8);
    $note = [];
    for ($k = mt_rand(0, 4); $k > 0; $k--) $note[] = $docs[mt_rand(0, count($docs) - 1)][mt_rand(0, 8)];
    $rows[$d] = ['title' => ucfirst(implode(' ', array_slice($w, 0, $cut))), 'body' => implode(' ', array_slice($w, $cut)), 'note' => implode(', ', $note)];
}
$ix = GpuPost\Index::fromDocuments($rows, ['device' => 'host']);
$file = sys_get_temp_dir() . '/gpupost-098-' . getmypid() . '.idx';
$ix->save($file);
$mapped = GpuPost\Index::open($file, ['device' => 'host']);
/* unranked trees on the process's device (kernels/tree.cl; the host where there is none) */
$dev = GpuPost\Index::open($file, ['device' => 'gpu']);
unlink($file);
$db = new SQLite3(':memory:');
$db->exec('CREATE VIRTUAL TABLE t USING fts5(title, body, note)');
$db->exec('BEGIN');
$st = $db->prepare('INSERT INTO t(rowid, title, body, note) VALUES (:r, :t, :b, :n)');
foreach ($rows as $d => $r) {
    $st->bindValue(':r', $d + 1, SQLITE3_INTEGER);
    $st->bindValue(':t', $r['title']);
    $st->bindValue(':b', $r['body']);
    $st->bindValue(':n', $r['note']);
    $st->execute();
}
$db->exec('COMMIT');
$columns = ['title', 'body', 'note'];
$table = 't';
require $argv[1] . '/tests/fts5_trees.inc';
$weights = function () {
    if (mt_rand(0, 4) == 0) return [];
    $pick = [0.5, 1.0, 2.0, 10.0, 0.25];
    return array_map(fn() => $pick[mt_rand(0, count($pick) - 1)], range(1, 3));
};
[$n, $bad, $nonempty, $quirks, $worst, $ops, $sample] = check_trees(["string" => [$ix, "string"], "mapped" => [$mapped, "string"], "array" => [$ix, "array"], "device" => [$dev, "string"]], $light ? 40 : 400, $weights, $light);
/* weights by name, and a batch of the trees compared by score */
$batch = array_map(fn($x) => $x[0], $sample);
foreach (array_chunk($batch, 5, true) as $chunk) {
    $w = $sample[array_key_first($chunk)][3];
    $got = $mapped->searchBatch($chunk, ['limit' => 10] + ($w ? ['weights' => array_combine($columns, $w)] : []));
    foreach ($chunk as $k => $q) {
        if (!same_top($got[$k], fts5($q, 10, $w), $worst) && $bad++ < 8) echo "batch $k: $q\n";
    }
}
/* pages: 'offset' with 'limit', and 'total' (every match) beside the page, as FTS5's LIMIT ...
 * OFFSET and count(*) */
$pages = 0;
foreach ($sample as $k => [$q, , , $w]) {
    $ow = $w ? ['weights' => array_combine($columns, $w)] : [];
    foreach ([[3, 0], [4, 2], [10, 7]] as [$limit, $offset]) {
        $got = $ix->search($q, ['limit' => $limit, 'offset' => $offset, 'total' => true] + $ow);
        $want = array_slice(fts5($q, $limit + $offset, $w), $offset, $limit, true);
        $total = count(fts5($q, 0, $w));
        if ($got['total'] !== $total || !same_top($got['results'], $want, $worst) || $ix->count($q, ['limit' => $limit, 'offset' => $offset]) !== count($want)) {
            if ($bad++ < 8) echo "page $limit+$offset of $q: total {$got['total']} (fts5 $total)\n";
        }
        $pages++;
    }
}
echo $pages > ($light ? 5 : 100) ? "pages and totals: many compared\n" : "pages and totals: only $pages\n";
$dev->search('title : "the" OR {body note} : NEAR("free" "software")');
echo "unranked trees answered by the device where there is one: ", $dev->info()['last_backend'] === (gp_device_available() ? 'opencl' : 'host') ? 'yes' : 'no', "\n";
echo $bad ? "FAILED $bad\n" : "all " . ($n == ($light ? 40 : 400) ? 'the' : "only $n of the") . " trees equal to FTS5's (" . ($nonempty > $n / 3 ? 'many' : $nonempty) . " with matches) with column filters and weights, as strings, on a mapped file, as arrays and on the device; scores within 1e-9: " . ($worst <= 1e-9 ? "yes" : "no") . ($n - $quirks > $n / 2 ? ", most compared by score" : ", only " . ($n - $quirks) . " compared by score") . "\n";
echo in_array('cols', $ops) ? "column filters: yes\n" : "column filters: none drawn\n";
/* the index's columns and their errors */
var_dump($ix->search('nosuchcolumn : gpl'));
CODE;
[$out, $rc] = gp_child($code, (extension_loaded('sqlite3') ? [] : ['extension' => getenv('GPUPOST_TEST_SQLITE3') ?: 'sqlite3']) + ['memory_limit' => '1G'], 'host', [dirname(__DIR__), getenv('USE_ZEND_ALLOC') === '0' ? 'light' : 'full']);
echo $out, "\n";
?>
--EXPECTF--
pages and totals: many compared
unranked trees answered by the device where there is one: yes
all the trees equal to FTS5's (many with matches) with column filters and weights, as strings, on a mapped file, as arrays and on the device; scores within 1e-9: yes, most compared by score
column filters: yes

Fatal error: Uncaught ValueError: GpuPost\Index::search(): Argument #1 ($query) MATCH expression: no such column: nosuchcolumn at byte 0 in %s
%A
