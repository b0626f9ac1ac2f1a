--TEST--
Query trees with prefixes on the device (a prefix's terms as one item of the tree kernel): random trees of prefixes in phrases (a* + b), NEAR groups, ^, column filters, AND, OR and NOT match FTS5's MATCH on the host and the device, with the same bm25() scores (top 10, random column weights, FTS5's where its rule holds); a prefix of more terms than a leaf holds goes to the host; terms of one prefix that share a position count it once on both
--EXTENSIONS--
gpupost
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
$code = <<<'CODE'
$light = ($argv[2] ?? '') === 'light';
mt_srand(103);
/* words of a consonant, a vowel and an ending: a prefix of two letters has 8 terms, of one 40
 * (more than a leaf of the kernel holds: GP_TP_POSTS, 32) */
$vocab = [];
foreach (['b', 'c', 'd', 'f', 'g'] as $l) foreach (['a', 'e', 'i', 'o', 'u'] as $v) foreach (['', 'n', 'nd', 'nk', 'r', 'rt', 's', 'st'] as $e) $vocab[] = $l . $v . $e;
$rows = [];
for ($d = 0; $d < 600; $d++) {
    $w = [];
    for ($k = mt_rand(4, 24); $k > 0; $k--) $w[] = $vocab[(int)(count($vocab) * (mt_rand(0, 999) / 1000) ** 2)];   /* some words common */
    $cut = mt_rand(1, 5);
    $rows[$d] = ['title' => implode(' ', array_slice($w, 0, $cut)), 'body' => implode(' ', array_slice($w, $cut))];
}
$ix = GpuPost\Index::fromDocuments($rows, ['device' => 'host']);
$dev = GpuPost\Index::fromDocuments($rows, ['device' => 'gpu']);
$db = new SQLite3(':memory:');
$db->exec('CREATE VIRTUAL TABLE docs USING fts5(title, body)');
$db->exec('BEGIN');
$st = $db->prepare('INSERT INTO docs(rowid, title, body) VALUES (:r, :t, :b)');
foreach ($rows as $d => $r) {
    $st->bindValue(':r', $d + 1, SQLITE3_INTEGER);
    $st->bindValue(':t', $r['title']);
    $st->bindValue(':b', $r['body']);
    $st->execute();
}
$db->exec('COMMIT');

/* a prefix of 2 to 4 letters (now and then 1: the host's), or a word */
function item(bool $prefix_only = false): string
{
    global $vocab;
    $w = $vocab[mt_rand(0, count($vocab) - 1)];
    if (!$prefix_only && mt_rand(0, 2) == 0) return $w;
    return substr($w, 0, mt_rand(0, 9) ? mt_rand(2, max(2, strlen($w))) : 1) . '*';
}
function phrase(): string
{
    $items = [item(true)];
    for ($k = mt_rand(0, 2); $k > 0; $k--) $items[] = item();
    shuffle($items);
    return implode(' + ', $items);
}
/* [MATCH expression, whether FTS5's bm25() follows its rule there (no NOT, no NEAR group of
 * several phrases, no AND below the root)] */
function query(int $depth, bool $root = true): array
{
    $k = mt_rand(0, $depth > 0 ? 8 : 4);
    switch ($k) {
    case 0: case 1: return [phrase(), true];
    case 2: return ['NEAR(' . phrase() . ' ' . phrase() . ', ' . mt_rand(0, 6) . ')', false];
    case 3: return ['^' . item(true), true];
    case 4: return [['title', 'body', '{title body}', '- title'][mt_rand(0, 3)] . ' : ' . phrase(), true];
    case 5: case 6:
        $op = $k == 5 ? ' AND ' : ' OR ';
        $a = query($depth - 1, false);
        $b = query($depth - 1, false);
        return ['(' . $a[0] . ')' . $op . '(' . $b[0] . ')', $a[1] && $b[1] && ($k == 6 || $root)];
    default:
        return ['(' . query($depth - 1, false)[0] . ') NOT (' . query($depth - 1, false)[0] . ')', false];
    }
}
function fts5(string $q, int $k, array $w): ?array
{
    global $db;
    $bm = 'bm25(docs' . ($w ? ', ' . implode(', ', $w) : '') . ')';
    $st = $db->prepare("SELECT rowid - 1, $bm FROM docs WHERE docs MATCH :q ORDER BY " . ($k ? "$bm, rowid LIMIT $k" : 'rowid'));
    $st->bindValue(':q', $q);
    $r = @$st->execute();
    if (!$r) return null;
    $out = [];
    while ($row = $r->fetchArray(SQLITE3_NUM)) $out[$row[0]] = -$row[1];
    return $out;
}
function close(array $a, array $b): bool
{
    if (array_keys($a) !== array_keys($b)) return false;
    foreach ($a as $d => $s) if (abs($s - $b[$d]) > 1e-9 * max(abs($s), 1e-300)) return false;
    return true;
}
$bad = $n = $scored = $on_device = $to_host = $one_letters = $nonempty = 0;
$want_backend = gp_device_available() ? 'opencl' : 'host';
for ($i = 0; $i < ($light ? 60 : 500); $i++) {
    [$q, $rule] = query(mt_rand(0, 2));
    $w = mt_rand(0, 1) ? [mt_rand(0, 30) / 10, mt_rand(0, 30) / 10] : [];
    $want = fts5($q, 0, []);
    if ($want === null) {
        if ($bad++ < 5) echo "FTS5 refused $q\n";
        continue;
    }
    $n++;
    $nonempty += count($want) > 0;
    $top = fts5($q, 10, $w);
    $ow = $w ? ['weights' => $w] : [];
    $host = [$ix->search($q), $ix->count($q), $ix->search($q, ['limit' => 10] + $ow)];
    $got = [$dev->search($q), $dev->count($q)];
    $one_letter = preg_match('/(^|[^a-z])[a-z]\*/', $q);
    $backend = $dev->info()['last_backend'];
    $got[] = $dev->search($q, ['limit' => 10] + $ow);
    $backend_ranked = $dev->info()['last_backend'];
    /* within a leaf's room the device answers; a prefix of one letter (40 terms) the host, and
     * so do a few NEAR groups whose prefixes of two letters hold more than 32 terms together */
    $one_letters += (bool)$one_letter;
    if ($one_letter) $to_host += $backend === 'host' && $backend_ranked === 'host';
    else $on_device += $backend === $want_backend && $backend_ranked === $want_backend;
    $fail = $host[0] !== array_keys($want) || $host[1] !== count($want) || $got[0] !== $host[0] || $got[1] !== $host[1] || !close($got[2], $host[2]);
    if ($rule && !close($host[2], $top)) $fail = true;
    $scored += $rule;
    if ($fail && $bad++ < 5) echo "$q ", json_encode($w), "\n  fts5 ", json_encode(array_keys($want)), ' ', json_encode($top), "\n  host ", json_encode($host), "\n  dev  ", json_encode($got), "\n";
}
echo $bad ? "FAILED $bad\n" : "all $n equal to FTS5's matches on the host and the device, the device's scores the host's, " . ($scored > $n / 3 ? 'many' : "only $scored") . " scored as FTS5 (" . ($nonempty > $n / 2 ? 'most' : "only $nonempty") . " with matches)\n";
echo "prefixes within a leaf's room on the device, wider ones on the host: ", $to_host == $one_letters && $to_host > 0 && $on_device >= 0.95 * ($n - $one_letters) ? "yes" : "no, $on_device + $to_host of $n ($one_letters of one letter)", "\n";

/* terms of one prefix at the same position (an index of postings can say so) make one instance:
 * the same answers and scores as an index where only one of them holds it */
$shared = ['ab' => [1 => [2, 5], 2 => [1]], 'abc' => [1 => [2, 7], 2 => [4]], 'x' => [1 => [3, 8], 2 => [2, 5]]];
$once = $shared;
$once['abc'][1] = [7];
$lengths = [1 => 9, 2 => 6];
$asked = [['ab* + x', []], ['ab* + x', ['limit' => 2]], ['(ab* + x) OR x', ['limit' => 2]], ['^ab*', ['limit' => 2]], ['NEAR(ab* x, 0)', ['limit' => 2]]];
$r = [];
foreach (['shared' => $shared, 'once' => $once] as $name => $lists) {
    foreach (['host', 'gpu'] as $where) {
        $small = new GpuPost\Index($lists, GPUPOST_POSTINGS, ['doc_lengths' => $lengths, 'device' => $where]);
        $r["$name $where"] = json_encode(array_map(fn($a) => $small->search(...$a), $asked));
    }
}
echo "a position two terms of a prefix share counted once: ", count(array_unique($r)) == 1 ? "yes, on both" : "no " . json_encode($r), "\n";
CODE;
[$out, $rc] = gp_child($code, (extension_loaded('sqlite3') ? [] : ['extension' => getenv('GPUPOST_TEST_SQLITE3') ?: 'sqlite3']) + ['memory_limit' => '1G'], 'host', [dirname(__DIR__), getenv('USE_ZEND_ALLOC') === '0' ? 'light' : 'full']);
echo $out, "\n";
?>
--EXPECTF--
all %d equal to FTS5's matches on the host and the device, the device's scores the host's, many scored as FTS5 (most with matches)
prefixes within a leaf's room on the device, wider ones on the host: yes
a position two terms of a prefix share counted once: yes, on both
