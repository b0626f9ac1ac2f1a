<?php
/* GpuPost\Index against what else answers the same queries on the same documents: queries/s and
 * p50/p99 latency of AND (2-4 terms) and phrase (2-3 terms) queries. Rows, in one run: gpupost on
 * the device (batched, and one query a call), gpupost's host C path (batched, and one a call),
 * PHP as a user writes it today (gpu_decode_postings_batch + array_intersect_key; positions
 * checked in PHP for phrases), SQLite FTS5 (ext/sqlite3) and Xapian (bench/xapian_bench, from
 * Debian's libxapian-dev). Every row's matches (count and sum of docs over the queries it ran)
 * are checked against gpupost's host answers for the same queries. Not a test.
 *
 *   php bench/index_bench.php demo OUT [SECONDS]            the demo corpus (demo/corpus.php)
 *   php bench/index_bench.php NAME.gpix QUERIES OUT [SECONDS] [TEXT]   a gen_corpus corpus (or any
 *                                                             index with a query log in its format)
 *
 * SECONDS bounds each one-query-a-call row (default 10): slow rows run a prefix of the log.
 * Ranked rows ("and10", "or10"): the AND log's terms, AND or OR, the 10 best by BM25 (FTS5's
 * bm25() ORDER BY ... LIMIT 10 beside; Xapian's BM25Weight, its own variant, not compared). */
require __DIR__ . '/../demo/corpus.php';
require __DIR__ . '/fts5_text.php';

$argv = $_SERVER['argv'];
$build_demo = ($argv[1] ?? '') === 'demo';
if ($build_demo) {
    [, , $out] = $argv;
    $seconds = (float)($argv[3] ?? 10);
    $name = 'demo';
} elseif (count($argv) >= 4) {
    [, $ixfile, $qfile, $out] = $argv;
    $seconds = (float)($argv[4] ?? 10);
    $text = $argv[5] ?? null;
    $name = basename($ixfile, '.gpix');
} else {
    fwrite(STDERR, "usage: php bench/index_bench.php demo OUT [SECONDS] | INDEX.gpix QUERIES OUT [SECONDS] [TEXT]\n");
    exit(2);
}
@mkdir($out, 0777, true);
$has_device = gpu_info()['backend'] === 'opencl';
$dtype = gpu_info()['device']['type'] ?? 'none';

/* --- the corpus, its index and its query log --- */
$t0 = hrtime(true);
if ($build_demo) {
    $text = "$out/demo-text.txt";
    /* the text, and its queries drawn by frequency (fts5_text.php); phrases at random token
     * places */
    [$lists, $lengths, $docs_tokens, $and] = demo_text_and_log($text);
    $qfile = "$out/demo-queries.txt";
    $q = array_map(fn($t) => 'and ' . implode(' ', $t), $and);
    while (count($q) < 20000) {
        $w = $docs_tokens[mt_rand(0, count($docs_tokens) - 1)];
        $n = mt_rand(2, 3);
        if (count($w) < $n) continue;
        $q[] = 'phrase ' . implode(' ', array_slice($w, mt_rand(0, count($w) - $n), $n));
    }
    file_put_contents($qfile, implode("\n", $q) . "\n");
    $ixfile = "$out/demo.gpix";
    (new GpuPost\Index($lists, GPUPOST_POSTINGS, ['doc_lengths' => $lengths]))->save($ixfile);
    unset($lists, $docs_tokens);
}
$load = hrtime(true);
$host = GpuPost\Index::open($ixfile, ['device' => 'host']);
$load = (hrtime(true) - $load) / 1e9;
/* the device's two ways of keeping the lists: decoded once, or as the file holds them and
 * decoded by each batch (opened from pinned memory) */
$open_s = [];
foreach (['decoded', 'compressed'] as $mode) {
    $t = hrtime(true);
    $devs[$mode] = $has_device ? GpuPost\Index::open($ixfile, ['device' => $dtype, 'device_lists' => $mode]) : null;
    $open_s[$mode] = sprintf("%s %.2f s (%.1f MB on the device)", $mode, (hrtime(true) - $t) / 1e9, $has_device ? $devs[$mode]->info()['bytes_device'] / 1e6 : 0);
}
[$dev, $dev_packed] = [$devs['decoded'], $devs['compressed']];
$info = $host->info();
$queries = ['and' => [], 'phrase' => []];
foreach (file($qfile, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
    $w = explode(' ', $line);
    $queries[array_shift($w)][] = $w;
}
$head = sprintf("# %s corpus: %d docs, %d terms, %d postings, %d positions; index file %.1f MB opened in %.2f s; device: %s",
    $name, $info['docs'], $info['terms'], $info['postings'], $info['positions'], filesize($ixfile) / 1e6, $load,
    $has_device ? gpu_info()['device']['name'] . " ($dtype)" : 'none');
if ($has_device) $head .= '; opened for the device: ' . implode(', ', $open_s);
echo $head, "\n";

/* --- the rows --- */
function percentile(array $lat, float $p): float
{
    sort($lat);
    return $lat ? $lat[min(count($lat) - 1, (int)floor(count($lat) * $p))] : 0.0;
}

/* One query a call: [queries run, q/s, p50 ms, p99 ms, matches, doc sum]. */
function one_by_one(array $qs, float $seconds, callable $run): array
{
    $lat = [];
    $m = $s = 0;
    $start = hrtime(true);
    foreach ($qs as $terms) {
        $t = hrtime(true);
        $docs = $run($terms);
        $lat[] = (hrtime(true) - $t) / 1e6;
        $m += count($docs);
        $s += array_sum($docs);
        if ((hrtime(true) - $start) / 1e9 > $seconds) break;
    }
    $total = (hrtime(true) - $start) / 1e9;
    return [count($lat), count($lat) / $total, percentile($lat, 0.5), percentile($lat, 0.99), $m, $s];
}

/* Batches of $size queries a call: latency per batch (stopping after $seconds). */
function batched(array $qs, int $size, callable $run, float $seconds): array
{
    $lat = [];
    $m = $s = 0;
    $start = hrtime(true);
    $n = 0;
    foreach (array_chunk($qs, $size) as $chunk) {
        $t = hrtime(true);
        $r = $run($chunk);
        $lat[] = (hrtime(true) - $t) / 1e6;
        foreach ($r as $docs) {
            $m += count($docs);
            $s += array_sum($docs);
        }
        $n += count($chunk);
        if ((hrtime(true) - $start) / 1e9 > $seconds) break;
    }
    $total = (hrtime(true) - $start) / 1e9;
    return [$n, $n / $total, percentile($lat, 0.5), percentile($lat, 0.99), $m, $s];
}

/* PHP today: the query's lists decoded in one batch call, intersected with array_intersect_key;
 * a phrase's positions checked in PHP. */
function php_query(array $terms, bool $phrase, array $blobs): array
{
    $lists = [];
    foreach ($terms as $t) {
        if (!isset($blobs[$t])) return [];
        $lists[$t] = $blobs[$t];
    }
    $dec = gpu_decode_postings_batch($lists, GPUPOST_MOD9, $phrase ? GPUPOST_POSTINGS : GPUPOST_DOCS);
    $hits = null;
    foreach ($dec as $l) {
        $l = $phrase ? $l : array_flip($l);
        $hits = $hits === null ? $l : array_intersect_key($hits, $l);
    }
    if (!$phrase) return array_keys($hits);
    $out = [];
    foreach ($hits as $doc => $_) {
        foreach ($dec[$terms[0]][$doc] as $p) {
            for ($j = 1; $j < count($terms) && in_array($p + $j, $dec[$terms[$j]][$doc], true); $j++);
            if ($j === count($terms)) { $out[] = $doc; break; }
        }
    }
    return $out;
}

/* The same ranked, as a PHP user would: the lists decoded with their positions, BM25 as SQLite
 * FTS5's bm25() computes it, the 10 best (ties: the smaller doc). */
function php_ranked(array $terms, bool $or, array $blobs, array $len, int $n, float $avg): array
{
    $lists = [];
    foreach (array_unique($terms) as $t) {
        if (!isset($blobs[$t])) {
            if (!$or) return [];
            continue;
        }
        $lists[$t] = $blobs[$t];
    }
    if (!$lists) return [];
    $dec = gpu_decode_postings_batch($lists, GPUPOST_MOD9, GPUPOST_POSTINGS);
    $docs = null;
    foreach ($dec as $l) $docs = $docs === null ? $l : ($or ? $docs + $l : array_intersect_key($docs, $l));
    $k1 = 1.2;
    $b = 0.75;
    $scores = [];
    foreach ($docs as $d => $_) {
        $s = 0.0;
        foreach ($terms as $t) {
            if (!isset($dec[$t][$d])) continue;
            $df = count($dec[$t]);
            $idf = log(($n - $df + 0.5) / ($df + 0.5));
            if ($idf <= 0.0) $idf = 1e-6;
            $tf = count($dec[$t][$d]);
            $s += $idf * (($tf * ($k1 + 1.0)) / ($tf + $k1 * (1 - $b + $b * $len[$d] / $avg)));
        }
        $scores[$d] = $s;
    }
    $ids = array_keys($scores);
    array_multisort($scores, SORT_DESC, $ids, SORT_ASC);
    return array_slice($ids, 0, 10);
}

$blobs = null;
$fts = null;
if ($text !== null && class_exists('SQLite3')) {
    $t0 = hrtime(true);
    $fts = new SQLite3(':memory:');
    fts5_index_text($fts, $text);
    fprintf(STDERR, "fts5: indexed in %.1f s\n", (hrtime(true) - $t0) / 1e9);
}
$xapian = [];
$xbin = __DIR__ . '/xapian_bench';
if ($text !== null && is_executable($xbin)) {
    $db = "$out/xapian-$name.db";
    foreach (explode("\n", trim((string)shell_exec(escapeshellarg($xbin) . ' ' . escapeshellarg($text) . ' ' . escapeshellarg($qfile)
        . ' ' . escapeshellarg($db) . ' ' . escapeshellarg((string)$seconds)))) as $l) {
        $f = explode(' ', $l);
        if (count($f) === 8) $xapian[$f[1]] = [(int)$f[2], (float)$f[3], (float)$f[4], (float)$f[5], (int)$f[6], (int)$f[7]];
    }
    shell_exec('rm -rf ' . escapeshellarg($db));
}

$rows = [];
/* the ranked rows (the AND log's terms, AND or OR, 10 best): what a user sees are the docs */
$keys = fn(array $r) => array_map('array_keys', $r);
foreach (['and' => [GPUPOST_AND, 0], 'phrase' => [GPUPOST_PHRASE, 0], 'and10' => [GPUPOST_AND, 10], 'or10' => [GPUPOST_OR, 10]]
         as $opname => [$op, $limit]) {
    $qs = $queries[$limit ? 'and' : $opname];
    $o = ['op' => $op, 'limit' => $limit];
    $batch = fn(GpuPost\Index $ix) => $limit ? fn($c) => $keys($ix->searchBatch($c, $o)) : fn($c) => $ix->searchBatch($c, $o);
    $single = fn(GpuPost\Index $ix) => $limit ? fn($t) => array_keys($ix->search($t, $o)) : fn($t) => $ix->search($t, $o);
    /* the reference: gpupost's answers per query (the device's where there is one: the suite
     * checks it against the host's), for the prefix checks */
    $ref_m = $ref_s = [0];
    foreach (array_merge(...array_map($batch($dev ?? $host), array_chunk($qs, 1000))) as $docs) {
        $ref_m[] = end($ref_m) + count($docs);
        $ref_s[] = end($ref_s) + array_sum($docs);
    }
    $r = [];
    if ($dev) {
        $dev->searchBatch(array_slice($qs, 0, 10), $o);   /* kernels compiled (PoCL compiles at first launch) */
        $r['gpupost device, 10,000 a call'] = batched($qs, 10000, $batch($dev), $seconds);
        $r['gpupost device, 1,000 a call'] = batched($qs, 1000, $batch($dev), $seconds);
        $r['gpupost device, one a call'] = one_by_one($qs, $seconds, $single($dev));
    }
    if ($dev && !$limit) {
        $dev_packed->searchBatch(array_slice($qs, 0, 10), $o);
        $r['gpupost device, compressed lists, 10,000 a call'] = batched($qs, 10000, fn($c) => $dev_packed->searchBatch($c, $o), $seconds);
        $r['gpupost device, compressed lists, 1,000 a call'] = batched($qs, 1000, fn($c) => $dev_packed->searchBatch($c, $o), $seconds);
        $r['gpupost device, compressed lists, one a call'] = one_by_one($qs, $seconds, fn($t) => $dev_packed->search($t, $o));
    }
    $r['gpupost host C, 1,000 a call'] = batched($qs, 1000, $batch($host), $seconds);
    $r['gpupost host C, one a call'] = one_by_one($qs, $seconds, $single($host));
    if ($blobs === null) {
        /* the lists as a PHP user holds them: one MOD9 blob per term, from the index file */
        [$blobs, $doc_len] = read_blobs($ixfile);
        $avgdl = $doc_len ? array_sum($doc_len) / count($doc_len) : 0.0;
    }
    if ($limit) {
        $r['PHP: decode + BM25 in PHP'] = one_by_one($qs, $seconds, fn($t) => php_ranked($t, $op === GPUPOST_OR, $blobs, $doc_len, count($doc_len), $avgdl));
    } else {
        $r['PHP: decode + array_intersect_key'] = one_by_one($qs, $seconds, fn($t) => php_query($t, $op === GPUPOST_PHRASE, $blobs));
    }
    if ($fts && $limit) {
        $st = $fts->prepare('SELECT rowid - 1 FROM docs WHERE docs MATCH :q ORDER BY bm25(docs), rowid LIMIT 10');
        $r['SQLite FTS5, bm25() LIMIT 10'] = one_by_one($qs, $seconds, function ($t) use ($st, $op) {
            $st->bindValue(':q', demo_fts5_match($t, false, $op === GPUPOST_OR), SQLITE3_TEXT);
            $res = $st->execute();
            $d = [];
            while ($row = $res->fetchArray(SQLITE3_NUM)) $d[] = $row[0];
            return $d;
        });
    } elseif ($fts) {
        $st = $fts->prepare('SELECT rowid - 1 FROM docs WHERE docs MATCH :q ORDER BY rowid');
        $r['SQLite FTS5'] = one_by_one($qs, $seconds, function ($t) use ($st, $op) {
            $st->bindValue(':q', demo_fts5_match($t, $op === GPUPOST_PHRASE), SQLITE3_TEXT);
            $res = $st->execute();
            $d = [];
            while ($row = $res->fetchArray(SQLITE3_NUM)) $d[] = $row[0];
            return $d;
        });
    }
    if (isset($xapian[$opname])) $r[$limit ? 'Xapian (C++, BM25Weight, 10 best)' : 'Xapian (C++, BoolWeight)'] = $xapian[$opname];
    echo "\n## $opname ($name corpus, " . count($qs) . " queries in the log)\n\n";
    echo "| row | queries run | queries/s | p50 ms | p99 ms | same matches as gpupost |\n|---|---|---|---|---|---|\n";
    foreach ($r as $label => [$n, $qps, $p50, $p99, $m, $s]) {
        $same = $m === $ref_m[$n] && $s === $ref_s[$n] ? 'yes' : "NO ($m vs {$ref_m[$n]})";
        if ($limit && str_starts_with($label, 'Xapian')) $same = 'n/a (its own BM25)';
        $lat = str_contains($label, 'a call') && !str_contains($label, 'one a call') ? ' (a call)' : '';
        printf("| %s | %d | %s | %.3f%s | %.3f%s | %s |\n", $label, $n, number_format($qps, 0, '.', ','), $p50, $lat, $p99, $lat, $same);
        $rows[] = sprintf("\"%s\" %s %.1f %.4f %.4f", $label, $opname, $qps, $p50, $p99);
    }
}
file_put_contents("$out/index-$name.dat", "# label op qps p50_ms p99_ms\n" . implode("\n", $rows) . "\n");
file_put_contents("$out/index-$name.head", $head . "\n");

/* The index file's lists as a PHP user would keep them: [term => MOD9 blob], and its doc lengths
 * [doc => tokens] (FORMATS.md 5). */
function read_blobs(string $path): array
{
    $f = file_get_contents($path);
    $h = unpack('Vsections', $f, 44);
    $sec = [];
    for ($i = 0; $i < $h['sections']; $i++) {
        $e = unpack('Vid/Vcrc/Poff/Plen', $f, 64 + 24 * $i);
        $sec[$e['id']] = [$e['off'], $e['len']];
    }
    $n = $sec[1][1] / 8 - 1;
    $tat = unpack("P" . ($n + 1), $f, $sec[1][0]);
    $bat = unpack("P" . ($n + 1), $f, $sec[3][0]);
    $blobs = [];
    for ($t = 1; $t <= $n; $t++) {
        $blobs[substr($f, $sec[2][0] + $tat[$t], $tat[$t + 1] - $tat[$t])] = substr($f, $sec[4][0] + $bat[$t], $bat[$t + 1] - $bat[$t]);
    }
    $len = [];
    if (isset($sec[5])) {
        $m = unpack('V', $f, $sec[5][0] + 16)[1];
        foreach (array_values(unpack("V$m", $f, $sec[5][0] + 24)) as $d => $l) {
            if ($l !== 0xFFFFFFFF) $len[$d] = $l;
        }
    }
    return [$blobs, $len];
}
