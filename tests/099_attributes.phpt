--TEST--
Numeric attributes (build option 'attributes'): filters (ranges, open ends, sets), a prior added to bm25(), an order by an attribute, pages and totals on random query trees equal a plain PHP reference over FTS5's matches and bm25() scores, built, on a saved file opened in place and on the device; bad options refused
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
mt_srand(99);
[$files] = demo_corpus(250);
$docs = array_values(array_filter(array_map(fn($p) => demo_tokens((string)file_get_contents($p)), $files), fn($w) => count($w) > 8));
$rows = $year = $rank = $lang = [];
foreach ($docs as $d => $w) {
    $rows[$d] = ['title' => implode(' ', array_slice($w, 0, 5)), 'body' => implode(' ', array_slice($w, 5))];
    if (mt_rand(0, 9)) $year[$d] = mt_rand(1990, 2025);   /* some docs have no year */
    $rank[$d] = mt_rand(0, 1000) / 37;
    $lang[$d] = mt_rand(1, 5);
}
$attrs = ['year' => $year, 'rank' => $rank, 'lang' => $lang];
$ix = GpuPost\Index::fromDocuments($rows, ['device' => 'host', 'attributes' => $attrs]);
$file = sys_get_temp_dir() . '/gpupost-099-' . getmypid() . '.idx';
$ix->save($file);
$mapped = GpuPost\Index::open($file);
unlink($file);
/* every batch sent to the process's device (the host where there is none): the attributes
 * resident beside the lists, the filters, prior and order in the tree kernels */
$dev = GpuPost\Index::fromDocuments($rows, ['device' => 'gpu', 'attributes' => $attrs]);
$on_device = 0;
$want_backend = gp_device_available() ? 'opencl' : 'host';
$db = new SQLite3(':memory:');
$db->exec('CREATE VIRTUAL TABLE t USING fts5(title, body)');
foreach ($rows as $d => $r) $db->exec("INSERT INTO t(rowid, title, body) VALUES (" . ($d + 1) . ", '" . SQLite3::escapeString($r['title']) . "', '" . SQLite3::escapeString($r['body']) . "')");
$columns = ['title', 'body'];
$table = 't';
require $argv[1] . '/tests/fts5_trees.inc';
$db->enableExceptions(true);

/* a random filter: a range (an end open now and then) or a set, on one or two attributes */
function random_filter(): array
{
    $f = [];
    if (mt_rand(0, 1)) $f['year'] = mt_rand(0, 3) ? [mt_rand(1990, 2010), mt_rand(0, 3) ? mt_rand(2005, 2025) : null] : [null, mt_rand(1995, 2020)];
    if (mt_rand(0, 2) == 0) $f['lang'] = ['in' => array_values(array_unique([mt_rand(1, 5), mt_rand(1, 5)]))];
    if (mt_rand(0, 3) == 0) $f['rank'] = [mt_rand(0, 10), mt_rand(10, 27) + 0.5];
    return $f;
}
function passes(int $d, array $filter): bool
{
    global $attrs;
    foreach ($filter as $a => $rule) {
        if (!isset($attrs[$a][$d])) return false;
        $v = $attrs[$a][$d];
        if (isset($rule['in'])) {
            if (!in_array($v, $rule['in'])) return false;
        } elseif (($rule[0] !== null && $v < $rule[0]) || ($rule[1] !== null && $v > $rule[1])) {
            return false;
        }
    }
    return true;
}
$bad = $checked = $ordered = 0;
$worst = 0.0;
for ($i = 0; $i < ($light ? 30 : 250); $i++) {
    $t = tree(mt_rand(1, 3));
    if ($light && fts5_quirk($t)) continue;   /* as check_trees' $plain */
    $q = to_match($t);
    $want_all = fts5($q, 0);
    if ($want_all === null) continue;
    $filter = random_filter();
    $kept = array_filter($want_all, fn($d) => passes($d, $filter), ARRAY_FILTER_USE_KEY);
    [$limit, $offset] = [mt_rand(1, 12), mt_rand(0, 5)];
    foreach ([$ix, $mapped, $dev] as $index) {
        /* the matches that pass, and their count */
        if ($index->search($q, ['filter' => $filter]) !== array_keys($kept) || $index->count($q, ['filter' => $filter]) !== count($kept)) {
            if ($bad++ < 5) echo "filter: $q ", json_encode($filter), "\n";
        }
        /* ordered by an attribute (its value the score; docs without it last), a page of it */
        $dir = mt_rand(0, 1) ? 'asc' : 'desc';
        $by = ['year', 'rank', 'lang'][mt_rand(0, 2)];
        $ref = [];
        foreach ($kept as $d => $s) $ref[$d] = $attrs[$by][$d] ?? null;
        uksort($ref, function ($a, $b) use ($ref, $dir) {
            if (($ref[$a] === null) !== ($ref[$b] === null)) return $ref[$a] === null ? 1 : -1;
            $c = $dir === 'asc' ? $ref[$a] <=> $ref[$b] : $ref[$b] <=> $ref[$a];
            return $c ?: $a <=> $b;
        });
        $got = $index->search($q, ['filter' => $filter, 'order' => [$by => $dir], 'limit' => $limit, 'offset' => $offset, 'total' => true]);
        $page = array_slice($ref, $offset, $limit, true);
        $same = $got['total'] === count($kept) && array_keys($got['results']) === array_keys($page);
        foreach ($page as $d => $v) $same = $same && ($v === null ? is_nan($got['results'][$d]) : $got['results'][$d] == $v);
        if (!$same && $bad++ < 5) echo "order $by $dir: $q ", json_encode($filter), "\n  ", json_encode($got), "\n  ", json_encode($page), "\n";
        $ordered++;
        /* bm25() plus a prior (FTS5's scores of the matches, where they are its rule's) */
        if (fts5_quirk($t)) continue;
        $w = mt_rand(0, 1) ? mt_rand(1, 20) / 10 : 0.0;
        $ref = [];
        foreach ($kept as $d => $s) $ref[$d] = $s + $w * $rank[$d];
        uksort($ref, fn($a, $b) => $ref[$b] <=> $ref[$a] ?: $a <=> $b);
        /* a weight of 0 given as no prior at all now and then: bm25() alone under the filters */
        $prior = $w == 0.0 && mt_rand(0, 1) ? [] : ['prior' => 'rank', 'prior_weight' => $w];
        $got = $index->search($q, ['filter' => $filter, 'limit' => $limit, 'offset' => $offset, 'total' => true] + $prior);
        $page = array_slice($ref, $offset, $limit, true);
        if ($index === $dev && $dev->info()['last_backend'] === $want_backend) $on_device++;
        if ($got['total'] !== count($kept) || !same_top($got['results'], $page, $worst)) {
            if ($bad++ < 5) echo "prior $w: $q ", json_encode($filter), "\n  ", json_encode($got), "\n  ", json_encode($page), "\n";
        }
        $checked++;
    }
}
echo $bad ? "FAILED $bad\n" : "filters, orders, priors and pages equal the reference: " . ($checked > ($light ? 10 : 300) && $ordered > ($light ? 20 : 600) ? "many" : "only $checked, $ordered") . " checked\n";
/* (trees with a prefix stay on the host: docs/API.md) */
echo "ranked with filters and priors on the device where there is one, most of them: ", $on_device > $checked / 3 / 2 ? "yes" : "no, $on_device of " . $checked / 3, "\n";
foreach ([['filter' => ['nope' => [1, 2]]], ['filter' => ['year' => [1]]], ['filter' => ['year' => ['in' => ['x']]]], ['order' => 'year'],
          ['order' => ['year' => 'up'], 'limit' => 3], ['prior' => 'rank', 'order' => 'year', 'limit' => 2], ['prior' => 'nope', 'limit' => 1], ['prior_weight' => INF]] as $o) {
    try {
        $mapped->search('gpl', $o);
        echo "accepted\n";
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
try {
    GpuPost\Index::fromDocuments([1 => 'a b'], ['attributes' => ['x' => [1 => NAN]]]);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
CODE;
[$out, $rc] = gp_child($code, (extension_loaded('sqlite3') ? [] : ['extension' => getenv('GPUPOST_TEST_SQLITE3') ?: 'sqlite3']) + ['memory_limit' => '1G'], 'host', [dirname(__DIR__), getenv('USE_ZEND_ALLOC') === '0' ? 'light' : 'full']);
echo $out, "\n";
?>
--EXPECT--
filters, orders, priors and pages equal the reference: many checked
ranked with filters and priors on the device where there is one, most of them: yes
GpuPost\Index::search(): Argument #2 ($options) option 'filter' names an attribute the index lacks: 'nope'
GpuPost\Index::search(): Argument #2 ($options) option 'filter' takes [attribute => [lo, hi]] (numbers, or null for an open end) or [attribute => ['in' => [numbers]]]
GpuPost\Index::search(): Argument #2 ($options) option 'filter' takes [attribute => [lo, hi]] (numbers, or null for an open end) or [attribute => ['in' => [numbers]]]
GpuPost\Index::search(): Argument #2 ($options) options 'prior' and 'order' rank: give 'limit' too
GpuPost\Index::search(): Argument #2 ($options) option 'order' must be an attribute's name or [name => 'asc' | 'desc']
GpuPost\Index::search(): Argument #2 ($options) options 'prior' and 'order' rank two ways: give one
GpuPost\Index::search(): Argument #2 ($options) option 'prior' names an attribute the index lacks: 'nope'
GpuPost\Index::search(): Argument #2 ($options) option 'prior_weight' must be a finite number
GpuPost\Index::fromDocuments(): Argument #2 ($options) option 'attributes' must give finite numbers ('x' of doc 1)
