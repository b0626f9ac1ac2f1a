--TEST--
Query trees (FTS5 MATCH expressions and array trees): random trees over FTS5's grammar on the demo corpus match FTS5's MATCH (the same docs), their bm25() top 10 equal FTS5's (the same docs in the same order, scores to 1e-9), and expressions with operators in any order parse (or fail) as FTS5's do
--EXTENSIONS--
gpupost
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
/* in a child with ext/sqlite3 (Debian's php-sqlite3, which scripts/setup.sh installs) */
$code = <<<'CODE'
require $argv[1] . '/demo/corpus.php';
mt_srand(96);
[$files, $index, , , $lengths] = demo_corpus(300);
$ix = new GpuPost\Index($index, GPUPOST_POSTINGS, ['doc_lengths' => $lengths, 'device' => 'host']);
$file = sys_get_temp_dir() . '/gpupost-096-' . getmypid() . '.idx';
$ix->save($file);
$mapped = GpuPost\Index::open($file);   /* version 2, its lists read in place */
unlink($file);
$db = demo_fts5($files);
$docs = array_values(array_filter(array_map(fn($p) => demo_tokens((string)file_get_contents($p)), $files), fn($w) => count($w) > 8));

/* the pieces: words of a doc (a phrase of its consecutive words matches somewhere), a prefix of
 * one, a doc's first word, now and then a word no doc has */
function words(int $n): array
{
    global $docs;
    $w = $docs[mt_rand(0, count($docs) - 1)];
    $at = mt_rand(0, count($w) - $n);
    return array_slice($w, $at, $n);
}
function leaf(): array
{
    global $docs;
    switch (mt_rand(0, 9)) {
    case 0: return ['phrase', words(mt_rand(2, 3))];
    case 1: $w = words(1)[0]; return ['prefix', substr($w, 0, max(1, min(strlen($w), mt_rand(1, 4))))];
    case 2: return ['initial', [$docs[mt_rand(0, count($docs) - 1)][0]]];
    case 3: return ['near', mt_rand(0, 3) ? mt_rand(0, 12) : null, array_map(fn($i) => mt_rand(0, 4) ? ['phrase', words(1)] : ['phrase', words(2)], range(1, mt_rand(2, 3)))];
    case 4: return ['phrase', mt_rand(0, 3) ? words(1) : ['zzqx' . mt_rand(0, 9)]];
    default: return ['phrase', words(1)];
    }
}
function tree(int $depth): array
{
    if ($depth == 0 || mt_rand(0, 3) == 0) return leaf();
    $kind = ['and', 'or', 'not', 'implicit'][mt_rand(0, 3)];
    if ($kind == 'not') return ['not', tree($depth - 1), tree($depth - 1)];
    if ($kind == 'implicit') return ['implicit', array_map(fn() => leaf(), range(1, mt_rand(2, 3)))];
    return [$kind, array_map(fn() => tree($depth - 1), range(1, mt_rand(2, 3)))];
}
/* as a MATCH expression: words quoted or bare, phrases quoted or joined by +, every operator's
 * operands in parentheses */
function word(string $w): string
{
    return in_array($w, ['and', 'or', 'not', 'near']) || mt_rand(0, 1) ? '"' . $w . '"' : $w;
}
function phrase_match(array $words): string
{
    return count($words) > 1 && mt_rand(0, 1) ? implode(' + ', array_map('word', $words)) : '"' . implode(' ', $words) . '"';
}
function to_match(array $t): string
{
    switch ($t[0]) {
    case 'phrase': return phrase_match($t[1]);
    case 'prefix': return word($t[1]) . '*';
    case 'initial': return '^' . phrase_match($t[1]);
    case 'near': return 'NEAR(' . implode(' ', array_map('to_match', $t[2])) . ($t[1] === null ? '' : ', ' . $t[1]) . ')';
    case 'not': return '(' . to_match($t[1]) . ') NOT (' . to_match($t[2]) . ')';
    case 'implicit': return implode(' ', array_map('to_match', $t[1]));
    default: return implode(' ' . strtoupper($t[0]) . ' ', array_map(fn($k) => '(' . to_match($k) . ')', $t[1]));
    }
}
/* as an array tree */
function arr(array $t)
{
    switch ($t[0]) {
    case 'phrase': return count($t[1]) == 1 && mt_rand(0, 1) ? $t[1][0] : ['phrase', ...$t[1]];
    case 'prefix': return ['prefix', $t[1]];
    case 'initial': return ['initial', ['phrase', ...$t[1]]];
    case 'near': return $t[1] === null ? ['near', ...array_map('arr', $t[2])] : ['near', $t[1], ...array_map('arr', $t[2])];
    case 'not': return ['not', arr($t[1]), arr($t[2])];
    case 'implicit': return ['and', ...array_map('arr', $t[1])];
    default: return [$t[0], ...array_map('arr', $t[1])];
    }
}
function fts5(string $q, int $k): ?array
{
    global $db;
    $sql = 'SELECT rowid - 1, bm25(docs) FROM docs WHERE docs MATCH :q ORDER BY ' . ($k ? 'bm25(docs), rowid LIMIT ' . $k : 'rowid');
    $st = $db->prepare($sql);
    $st->bindValue(':q', $q, SQLITE3_TEXT);
    try {
        $r = $st->execute();
        $out = [];
        while ($row = $r->fetchArray(SQLITE3_NUM)) $out[$row[0]] = -$row[1];
        return $out;
    } catch (Exception $e) {
        return null;
    }
}
function fts5_alone(string $q, int $doc): ?float
{
    global $db;
    $st = $db->prepare('SELECT bm25(docs) FROM docs WHERE docs MATCH :q AND rowid = :r');
    $st->bindValue(':q', $q, SQLITE3_TEXT);
    $st->bindValue(':r', $doc + 1, SQLITE3_INTEGER);
    $row = $st->execute()->fetchArray(SQLITE3_NUM);
    return $row ? -$row[0] : null;
}
function same_top(array $got, array $want, float &$worst): bool
{
    if (array_keys($got) !== array_keys($want)) return false;
    foreach ($want as $d => $s) {
        $rel = abs($got[$d] - $s) / max(abs($s), 1e-300);
        $worst = max($worst, $rel);
        if ($rel > 1e-9) return false;
    }
    return true;
}
/* Where FTS5's bm25() departs from its own rule (a phrase counts in a row where its branch of the
 * tree matches), which gpupost keeps (docs/API.md), from what its code does: a NOT whose first
 * operand matches no row leaves its second at its first row, where its phrases then count; a NEAR
 * group of several phrases, one of several tokens, that fails in a row keeps hits there (of the
 * phrases before the one that failed, or of an earlier row); an AND below the root that fails on
 * positions in a row zeroes the hits of every phrase below it, those of an OR's child already at
 * a later row too, which then count nothing there. Such trees' matches are compared, their
 * scores not; elsewhere a row whose score depends on how FTS5's scan reached it (its score asked
 * alone is gpupost's) is counted with them. */
function fts5_quirk(array $t, bool $root = true): bool
{
    switch ($t[0]) {
    case 'near':
        foreach ($t[2] as $p) if (count($t[2]) > 1 && count($p[1]) > 1) return true;
        return false;
    case 'not':
        return fts5(to_match($t[1]), 0) === [] || fts5_quirk($t[1], false) || fts5_quirk($t[2], false);
    case 'and': case 'implicit':
        if (!$root && has($t, ['or']) && has($t, ['multi'])) return true;
        /* fall through */
    case 'or':
        foreach ($t[1] as $k) if (fts5_quirk($k, false)) return true;
        return false;
    default:
        return false;
    }
}
/* whether a tree holds an OR (kinds 'or'), or a leaf that can fail on positions ('multi') */
function has(array $t, array $kinds): bool
{
    switch ($t[0]) {
    case 'phrase': return in_array('multi', $kinds) && count($t[1]) > 1;
    case 'initial': return in_array('multi', $kinds);
    case 'near': return in_array('multi', $kinds) && count($t[2]) > 1;
    case 'prefix': return false;
    case 'not': return has($t[1], $kinds) || has($t[2], $kinds);
    default:
        if (in_array($t[0], $kinds)) return true;
        foreach ($t[1] as $k) if (has($k, $kinds)) return true;
        return false;
    }
}
$db->enableExceptions(true);
$quirks = 0;
$bad = $n = $nonempty = $worst = 0;
$ops = [];
$batch_q = $batch_a = $batch_w = [];
for ($i = 0; $i < 700; $i++) {
    $t = tree(mt_rand(1, 4));
    $q = to_match($t);
    $a = arr($t);
    $want = fts5($q, 0);
    $top = fts5($q, 10);
    if ($want === null) {
        if ($bad++ < 5) echo "FTS5 refused $q\n";
        continue;
    }
    $n++;
    $nonempty += count($want) > 0;
    array_walk_recursive($t, function ($v) use (&$ops) { if (is_string($v)) $ops[$v] = 1; });
    $docs_want = array_keys($want);
    /* every match's score against FTS5's in the same scan; where they differ, FTS5's score of that
     * row asked alone (FTS5's scores depend on how its scan reached a row in some trees) */
    $exact = !fts5_quirk($t);
    $all = $ix->search($q, ['limit' => count($want) + 1]);
    foreach ($exact ? $want : [] as $d => $s) {
        if (isset($all[$d]) && abs($all[$d] - $s) <= 1e-9 * abs($s)) continue;
        $alone = fts5_alone($q, $d);
        $exact = false;
        if (!isset($all[$d]) || $alone === null || abs($all[$d] - $alone) > 1e-9 * abs($alone) || abs($alone - $s) <= 1e-9 * abs($s)) {
            if ($bad++ < 5) echo "score of doc $d: $q\n  fts5 $s (alone $alone) gpupost ", $all[$d] ?? 'none', "\n";
        }
    }
    $quirks += !$exact;
    foreach (['string' => [$ix, $q, []], 'mapped' => [$mapped, $q, []], 'array' => [$ix, $a, ['tree' => true]]] as $how => [$index, $query, $o]) {
        $got = $index->search($query, $o);
        $ranked = $index->search($query, $o + ['limit' => 10]);
        $count = $index->count($query, $o);
        if ($got !== $docs_want || $count !== count($want) || ($exact && !same_top($ranked, $top, $worst))) {
            if ($bad++ < 5) echo "$how: $q\n  fts5 ", json_encode($docs_want), ' ', json_encode($top), "\n  got  ", json_encode($got), " count $count ", json_encode($ranked), "\n";
        }
    }
    if ($i % 7 == 0 && $exact) {
        $batch_q["q$i"] = $q;
        $batch_a["q$i"] = $a;
        $batch_w["q$i"] = $top;
    }
}
/* a batch of mixed queries: MATCH strings, array trees, a list of terms under 'op' */
$mixed = $batch_q + ['list' => ['gpl', 'license']];
$got = $ix->searchBatch($mixed, ['limit' => 10]);
$got_a = $mapped->searchBatch($batch_a, ['limit' => 10, 'tree' => true]);
foreach ($batch_q as $k => $q) {
    if (!same_top($got[$k], $batch_w[$k], $worst) || !same_top($got_a[$k], $batch_w[$k], $worst)) {
        if ($bad++ < 8) echo "batch $k: $q\n";
    }
}
if (!same_top($got['list'], fts5('"gpl" AND "license"', 10), $worst)) echo "batch list differs\n";
echo $bad ? "FAILED $bad\n" : "all $n trees equal to FTS5's (" . ($nonempty > 300 ? 'many' : $nonempty) . " with matches), as strings, on a mapped file and as arrays; scores within 1e-9: " . ($worst <= 1e-9 ? "yes" : "no") . ($n - $quirks > $n / 2 ? ", most compared by score" : ", only " . ($n - $quirks) . " compared by score") . "\n";
ksort($ops);
echo "operators: ", implode(' ', array_intersect(array_keys($ops), ['and', 'or', 'not', 'implicit', 'phrase', 'prefix', 'initial', 'near'])), "\n";

/* operators and pieces in any order, without parentheses: the same precedence, the same errors */
$pieces = ['a', 'b', 'license', 'gpl', 'software', '"free software"', 'lic*', '^the', 'OR', 'AND', 'NOT', 'OR', 'AND', 'NOT',
           '(', ')', 'NEAR(gpl license)', 'NEAR(free software, 2)', '+', '*', '^', ',', ':', '-', '{', '}', '"', 'NEAR', 'x:'];
$agree = $errors = $parsed = 0;
for ($i = 0; $i < 3000; $i++) {
    $q = implode(' ', array_map(fn() => $pieces[mt_rand(0, count($pieces) - 1)], range(1, mt_rand(1, 7))));
    $want = fts5($q, 0);
    try {
        $got = $ix->search($q);
    } catch (ValueError $e) {
        $got = null;
    }
    if ($want === null) $errors++; else $parsed++;
    if (($want === null) !== ($got === null) || ($want !== null && $got !== array_keys($want))) {
        if ($bad++ < 12) echo "soup: $q: fts5 ", $want === null ? 'error' : json_encode(array_keys($want)), ' gpupost ', $got === null ? 'error ' . $e->getMessage() : json_encode($got), "\n";
    } else {
        $agree++;
    }
}
echo "expressions in any order: $agree of 3000 agree with FTS5 (", $parsed > 300 && $errors > 300 ? 'many parsed, many refused' : "parsed $parsed, refused $errors", ")\n";
CODE;
[$out, $rc] = gp_child($code, (extension_loaded('sqlite3') ? [] : ['extension' => getenv('GPUPOST_TEST_SQLITE3') ?: 'sqlite3']) + ['memory_limit' => '1G'], 'host', [dirname(__DIR__)]);
echo $out, "\n";
?>
--EXPECT--
all 700 trees equal to FTS5's (many with matches), as strings, on a mapped file and as arrays; scores within 1e-9: yes, most compared by score
operators: and implicit initial near not or phrase prefix
expressions in any order: 3000 of 3000 agree with FTS5 (many parsed, many refused)
