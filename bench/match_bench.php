<?php
/* Query trees (FTS5 MATCH expressions) against SQLite FTS5 and Xapian on the same documents, one
 * query a call on one core: queries/s and p50/p99 latency of each operator (AND, OR, NOT, phrase,
 * prefix, NEAR, ^, and a tree of several), every match (docs) and the 10 best (bm25()). Rows, in
 * one run: gpupost on its file opened in place (the MATCH string; for AND and OR also the list of
 * terms under 'op', the flat path), SQLite FTS5 (ext/sqlite3), and Xapian's QueryParser
 * (bench/xapian_match, built from Debian's libxapian-dev when it is there: the same queries in its
 * syntax; NEAR/n is its own definition and ^ it has not). Every query's answer is checked against
 * FTS5's (the same docs; the same top 10 with scores to 1e-9) before anything is timed, and
 * Xapian's match counts against gpupost's where its syntax means the same. Not a test.
 *
 *   php bench/match_bench.php OUT [SECONDS]     the demo corpus (demo/corpus.php)
 *   php bench/match_bench.php OUT SECONDS INDEX.gpix QUERY_LOG TEXT
 *       bench/gen_corpus's synthetic corpus: its index file, query log (its AND queries' terms
 *       are the words drawn) and text (FTS5 and Xapian index it; phrases and NEAR groups come
 *       from its first 20,000 docs)
 *
 * SECONDS bounds each row (default 5): a slow row runs a prefix of its queries. */
require __DIR__ . '/../demo/corpus.php';
require __DIR__ . '/fts5_text.php';

$argv = $_SERVER['argv'];
if (count($argv) < 2 || (count($argv) > 3 && count($argv) != 6)) {
    fwrite(STDERR, "usage: php bench/match_bench.php OUT [SECONDS [INDEX.gpix QUERY_LOG TEXT]]\n");
    exit(2);
}
$out = $argv[1];
$seconds = (float)($argv[2] ?? 5);
@mkdir($out, 0777, true);

if (count($argv) == 6) {
    [, , , $ixfile, $logfile, $text] = $argv;
    $corpus = 'Synthetic corpus (' . basename($ixfile) . ')';
    $and_log = $docs_tokens = [];
    foreach (file($logfile, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
        $w = explode(' ', $line);
        if (array_shift($w) === 'and') $and_log[] = $w;
    }
    $fh = fopen($text, 'r');
    while (count($docs_tokens) < 20000 && ($line = fgets($fh)) !== false) $docs_tokens[] = explode(' ', rtrim($line, "\n"));
    fclose($fh);
    mt_srand(2026);
} else {
    $text = "$out/demo-text.txt";
    [$lists, $lengths, $docs_tokens, $and_log] = demo_text_and_log($text);
    $corpus = 'Demo corpus (' . count($docs_tokens) . ' docs)';
    $ixfile = "$out/demo.gpix";
    (new GpuPost\Index($lists, GPUPOST_POSTINGS, ['doc_lengths' => $lengths]))->save($ixfile);
    unset($lists);
}
$ix = GpuPost\Index::open($ixfile, ['device' => 'host']);
$db = new SQLite3(':memory:');
fts5_index_text($db, $text);
$db->enableExceptions(true);

/* --- the queries: 500 of each kind, their words drawn as demo_text_and_log draws the AND log's
 * (outside the 100 most frequent terms); phrases and NEAR groups from a doc's own words --- */
mt_srand(38);
$docs = array_values(array_filter($docs_tokens, fn($w) => count($w) > 20));
function pick(array $log): string
{
    $t = $log[mt_rand(0, count($log) - 1)];
    return $t[mt_rand(0, count($t) - 1)];
}
function near_words(array $docs, int $n, int $span): array
{
    $w = $docs[mt_rand(0, count($docs) - 1)];
    $at = mt_rand(0, count($w) - $span - 1);
    $picked = array_slice($w, $at, $span);
    shuffle($picked);
    return array_slice($picked, 0, $n);
}
$q = ['AND' => [], 'OR' => [], 'NOT' => [], 'phrase' => [], 'prefix' => [], 'NEAR' => [], '^' => [], 'tree' => []];
$flat = ['AND' => [], 'OR' => []];
for ($i = 0; $i < 500; $i++) {
    $t = $and_log[$i];
    $q['AND'][] = '"' . implode('" "', $t) . '"';
    $flat['AND'][] = $t;
    $q['OR'][] = '"' . implode('" OR "', $t) . '"';
    $flat['OR'][] = $t;
    $q['NOT'][] = '"' . pick($and_log) . '" NOT "' . pick($and_log) . '"';
    $w = $docs[mt_rand(0, count($docs) - 1)];
    $n = mt_rand(2, 3);
    $q['phrase'][] = '"' . implode(' ', array_slice($w, mt_rand(0, count($w) - $n), $n)) . '"';
    $p = pick($and_log);
    $q['prefix'][] = '"' . substr($p, 0, min(strlen($p), 3)) . '"* "' . pick($and_log) . '"';
    $q['NEAR'][] = 'NEAR("' . implode('" "', near_words($docs, 2, 8)) . '", 5)';
    $q['^'][] = '^"' . $docs[mt_rand(0, count($docs) - 1)][0] . '" "' . pick($and_log) . '"';
    $q['tree'][] = '("' . pick($and_log) . '" OR "' . pick($and_log) . '") AND "' . pick($and_log) . '" NOT "' . implode(' ', near_words($docs, 2, 2)) . '"';
}

function fts5_docs(SQLite3 $db, string $q, int $k): array
{
    $st = $db->prepare('SELECT rowid - 1, bm25(docs) FROM docs WHERE docs MATCH :q ORDER BY ' . ($k ? 'bm25(docs), rowid LIMIT ' . $k : 'rowid'));
    $st->bindValue(':q', $q, SQLITE3_TEXT);
    $r = $st->execute();
    $o = [];
    while ($row = $r->fetchArray(SQLITE3_NUM)) $o[$row[0]] = -$row[1];
    return $o;
}

/* --- every answer checked first --- */
$bad = 0;
$totals = [];
foreach ($q as $kind => $qs) {
    $totals[$kind] = 0;
    foreach ($qs as $i => $s) {
        $want = fts5_docs($db, $s, 0);
        $totals[$kind] += count($want);
        $top = fts5_docs($db, $s, 10);
        $got = $ix->search($s);
        $ranked = $ix->search($s, ['limit' => 10]);
        $ok = $got === array_keys($want) && array_keys($ranked) === array_keys($top);
        foreach ($top as $d => $sc) $ok = $ok && abs($ranked[$d] - $sc) <= 1e-9 * abs($sc);
        if (isset($flat[$kind])) {
            $o = ['op' => $kind === 'AND' ? GPUPOST_AND : GPUPOST_OR];
            $ok = $ok && $ix->search($flat[$kind][$i], $o) === $got && array_keys($ix->search($flat[$kind][$i], $o + ['limit' => 10])) === array_keys($top);
        }
        if (!$ok && $bad++ < 5) fwrite(STDERR, "differs from FTS5: $s\n");
    }
}
if ($bad) {
    fwrite(STDERR, "$bad answers differ from FTS5's\n");
    exit(1);
}

function percentile(array $lat, float $p): float
{
    sort($lat);
    return $lat ? $lat[min(count($lat) - 1, (int)floor(count($lat) * $p))] : 0.0;
}
/* One query a call: [q/s, p50 ms, p99 ms]. */
function timed(array $qs, float $seconds, callable $run): array
{
    $lat = [];
    $start = hrtime(true);
    foreach ($qs as $query) {
        $t = hrtime(true);
        $run($query);
        $lat[] = (hrtime(true) - $t) / 1e6;
        if ((hrtime(true) - $start) / 1e9 > $seconds) break;
    }
    return [count($lat) / ((hrtime(true) - $start) / 1e9), percentile($lat, 0.5), percentile($lat, 0.99)];
}

/* Xapian: the same queries in QueryParser's syntax (terms bare; NOT is AND NOT there) */
function xapian_query(string $s): string
{
    $s = preg_replace('/NEAR\("([^"]+)" "([^"]+)", (\d+)\)/', '$1 NEAR/$3 $2', $s);
    return preg_replace('/"([a-z0-9]+)"\*/', '$1*', $s);
}
$xapian = [];
$xbin = __DIR__ . '/xapian_match';
if (!is_executable($xbin) && is_file('/usr/include/xapian.h')) {
    exec('g++ -O2 -o ' . escapeshellarg($xbin) . ' ' . escapeshellarg(__DIR__ . '/xapian_match.cc') . ' -lxapian 2>&1', $o, $rc);
}
if (is_executable($xbin)) {
    $lines = [];
    foreach ($q as $kind => $qs) {
        if ($kind === '^') continue;
        foreach ($qs as $s) $lines[] = "$kind\t" . xapian_query($s);
    }
    file_put_contents("$out/xapian-queries.txt", implode("\n", $lines) . "\n");
    exec('taskset -c 0 ' . escapeshellarg($xbin) . ' ' . escapeshellarg($text) . ' ' . escapeshellarg("$out/xapian-queries.txt") . ' ' .
         escapeshellarg("$out/xapian-db") . ' ' . (float)$seconds . ' 2>&1', $xo);
    foreach ($xo as $l) {
        $f = explode(' ', $l);
        if (count($f) == 8 && $f[0] === 'xapian') $xapian[$f[1]][$f[2]] = [(int)$f[3], (float)$f[4], (float)$f[5], (float)$f[6], (int)$f[7]];
    }
    foreach (['AND', 'OR', 'NOT', 'phrase', 'prefix', 'tree'] as $kind) {
        $x = $xapian[$kind]['every'] ?? null;
        if ($x && $x[0] == count($q[$kind]) && $x[4] != $totals[$kind]) fwrite(STDERR, "Xapian's $kind matches ($x[4]) differ from gpupost's ($totals[$kind])\n");
        if ($x && $x[0] == count($q[$kind]) && $x[4] == $totals[$kind]) $xapian[$kind]['checked'] = true;
    }
}

$rows = [];
foreach ($q as $kind => $qs) {
    foreach (['every match' => 0, 'top 10' => 10] as $what => $k) {
        $o = $k ? ['limit' => $k] : [];
        $g = timed($qs, $seconds, fn($s) => $ix->search($s, $o));
        $f = timed($qs, $seconds, fn($s) => fts5_docs($db, $s, $k));
        $row = [$kind, $what, $g, $f];
        if (isset($flat[$kind])) {
            $fo = $o + ['op' => $kind === 'AND' ? GPUPOST_AND : GPUPOST_OR];
            $row[] = timed($flat[$kind], $seconds, fn($t) => $ix->search($t, $fo));
        }
        $row['x'] = $xapian[$kind][$k ? 'top10' : 'every'] ?? null;
        $row['xc'] = !empty($xapian[$kind]['checked']);
        $rows[] = $row;
    }
}

$cpu = trim((string)shell_exec("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"));
$md = "$corpus, 500 queries of each kind, one query a call on one core; $cpu; "
    . "every answer equal to FTS5's (docs; top 10 docs and scores to 1e-9).\n\n"
    . "| query | answer | gpupost q/s | p50 ms | p99 ms | FTS5 q/s | p50 ms | p99 ms | gpupost / FTS5 | flat list q/s | Xapian q/s | p50 ms | p99 ms | gpupost / Xapian |\n"
    . "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
foreach ($rows as $r) {
    [$kind, $what, $g, $f] = $r;
    $x = $r['x'];
    $md .= sprintf("| %s | %s | %.0f | %.3f | %.3f | %.0f | %.3f | %.3f | %.1fx | %s | %s |\n", $kind, $what, $g[0], $g[1], $g[2], $f[0], $f[1], $f[2],
                   $g[0] / $f[0], isset($r[4]) ? sprintf('%.0f', $r[4][0]) : '',
                   $x ? sprintf('%.0f%s | %.3f | %.3f | %.1fx', $x[1], $r['xc'] || $what !== 'every match' ? '' : ' (other matches)', $x[2], $x[3], $g[0] / $x[1]) : ' | | | ');
}
$md .= "\nXapian: QueryParser (default AND, FLAG_BOOLEAN | FLAG_PHRASE | FLAG_WILDCARD) over the same tokens; every match with BoolWeight in docid order, the 10 best with BM25Weight(1.2, 0, 1, 0.75, 0) (its own BM25, not compared); its matches equal gpupost's for AND, OR, NOT, phrases, prefixes and the tree (checked where it ran every query); NEAR/5 is Xapian's window, not FTS5's NEAR; ^ has no Xapian form.\n";
file_put_contents("$out/match.md", $md);
echo $md;
