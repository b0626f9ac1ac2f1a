<?php
/* bench/http.sh's endpoint (served as q.php by nginx + php-fpm): one query of the log a request,
 * answered by one engine, as a PHP site would answer a search page.
 *
 *   /q.php?e=ENGINE&k=KIND&id=N[&check=1]
 *
 * ENGINE: server | worker (a persistent GpuPost\Index; the pool's gpupost.server decides whether
 * gpupostd answers), fts5 (SQLite FTS5 through ext/sqlite3, the database opened per request),
 * sphinx (searchd through SphinxQL, mysqli, a connection per request). KIND: "and" (every match:
 * {"n": count, "sum": sum of docs}) or "or10" (OR, the 10 best by BM25: {"docs": [...]}). Docs
 * are gpupost's numbers (FTS5's rowid and Sphinx's id are doc + 1). check=1 adds what
 * bench/http_check.php compares: for or10 the scores and the match count ("total"), for gpupost
 * who answered ("by"). Anything wrong is an exception, so an HTTP 500 that wrk counts. */
$c = require __DIR__ . '/conf.php';
$e = $_GET['e'] ?? '';
$k = $_GET['k'] ?? '';
$id = (int)($_GET['id'] ?? -1);
$check = isset($_GET['check']);
if ($id < 0 || $id >= $c['n'] || ($k !== 'and' && $k !== 'or10')) {
    http_response_code(400);
    exit;
}
/* the query: record $id of the fixed-width log */
$fh = fopen($c['queries'], 'r');
fseek($fh, $id * $c['width']);
$terms = explode(' ', rtrim(fread($fh, $c['width'] - 1)));
fclose($fh);
$or = $k === 'or10';
$r = [];
switch ($e) {
    case 'server':
    case 'worker':
        $ix = GpuPost\Index::open($c['ix'], ['persistent' => true, 'server' => 'auto']);
        if ($or) {
            $top = $ix->search($terms, ['op' => GPUPOST_OR, 'limit' => 10]);
            $r['docs'] = array_keys($top);
        } else {
            $docs = $ix->search($terms);
            $r = ['n' => count($docs), 'sum' => array_sum($docs)];
        }
        if ($check) {
            $r['by'] = $ix->info()['answered_by'];
            if ($or) {
                $r['scores'] = array_values($top);
                $r['total'] = $ix->count($terms, ['op' => GPUPOST_OR]);
            }
        }
        break;
    case 'fts5':
        $db = new SQLite3($c['fts'], SQLITE3_OPEN_READONLY);
        $db->enableExceptions(true);
        /* each term quoted, so that words like "and", "or" or "near" are terms */
        $match = implode($or ? ' OR ' : ' AND ', array_map(fn($t) => '"' . $t . '"', $terms));
        /* ties by the smaller doc, as gpupost ranks them */
        $st = $db->prepare($or ? 'SELECT rowid, bm25(docs) FROM docs WHERE docs MATCH ? ORDER BY bm25(docs), rowid LIMIT 10'
                               : 'SELECT rowid FROM docs WHERE docs MATCH ?');
        $st->bindValue(1, $match, SQLITE3_TEXT);
        $res = $st->execute();
        $n = $sum = 0;
        while ($row = $res->fetchArray(SQLITE3_NUM)) {
            if ($or) {
                $r['docs'][] = $row[0] - 1;
                $scores[] = -$row[1];
            } else {
                $n++;
                $sum += $row[0] - 1;
            }
        }
        if (!$or) {
            $r = ['n' => $n, 'sum' => $sum];
        } else {
            $r['docs'] ??= [];
            if ($check) {
                $r['scores'] = $scores ?? [];
                $st = $db->prepare('SELECT count(*) FROM docs WHERE docs MATCH ?');
                $st->bindValue(1, $match, SQLITE3_TEXT);
                $r['total'] = $st->execute()->fetchArray(SQLITE3_NUM)[0];
            }
        }
        break;
    case 'sphinx':
        $my = new mysqli('127.0.0.1', '', '', '', $c['sphinx_port']);
        /* Sphinx's operators escaped, then SQL's quote; a term is a quoted keyword */
        $kw = array_map(fn($t) => '"' . $my->real_escape_string(addcslashes($t, '\\()|-!@~"&/^$=<')) . '"', $terms);
        $match = implode($or ? ' | ' : ' ', $kw);
        if ($or) {
            $res = $my->query("SELECT id FROM docs WHERE MATCH('$match') ORDER BY WEIGHT() DESC, id ASC LIMIT 10 OPTION ranker={$c['sphinx_ranker']}");
            $r['docs'] = [];
            while ($row = $res->fetch_row()) $r['docs'][] = (int)$row[0] - 1;
        } else {
            /* every match: max_matches (default 1000) raised to the corpus's docs, no ranking */
            $res = $my->query("SELECT id FROM docs WHERE MATCH('$match') LIMIT 0, {$c['docs']} OPTION max_matches={$c['docs']}, ranker=none");
            $n = $sum = 0;
            while ($row = $res->fetch_row()) {
                $n++;
                $sum += (int)$row[0] - 1;
            }
            $r = ['n' => $n, 'sum' => $sum];
        }
        if (!$or || $check) {
            /* the count a site shows: total_found (the rows returned are capped by max_matches) */
            $meta = [];
            foreach ($my->query('SHOW META')->fetch_all() as [$name, $value]) $meta[$name] = $value;
            if ($or) {
                $r['total'] = (int)$meta['total_found'];
            } elseif ((int)$meta['total_found'] !== $n) {
                throw new RuntimeException("sphinx: total_found {$meta['total_found']}, $n rows returned");
            }
        }
        $my->close();
        break;
    default:
        http_response_code(400);
        exit;
}
header('Content-Type: application/json');
echo json_encode($r), "\n";
