<?php
/* gpupost demo: index the license texts every Debian machine has into Yioop-format posting
 * lists (gpu_encode_postings), build a GpuPost\Index from them and answer multi-word and phrase
 * queries through it (on the device where there is one), checked against what a PHP user does
 * today (decode every list, intersect in PHP) and against SQLite FTS5 on the same tokens. Prints
 * what ran where and how long each step took.
 *
 *   php -d extension=gpupost demo/search.php [--format=mod9|s9|qs] [--query="free software"]... [--limit=N]
 *
 * --format=mod9 (default) indexes Yioop postings (doc and positions) and ranks by occurrences;
 * s9 and qs index docID lists only (Simple-9 with the strict delta rule, Elias-Fano) and rank
 * the matching docs in doc order.
 */

$opts = getopt('', ['query:', 'limit:', 'format:', 'help']);
if (isset($opts['help'])) {
    fwrite(STDOUT, "usage: php demo/search.php [--format=mod9|s9|qs] [--query=\"words\"]... [--limit=N docs]\n");
    exit(0);
}
$formats = ['mod9' => GPUPOST_MOD9, 's9' => GPUPOST_S9, 'qs' => GPUPOST_QS];
$fname = strtolower($opts['format'] ?? 'mod9');
if (!isset($formats[$fname])) {
    fwrite(STDERR, "--format must be mod9, s9 or qs\n");
    exit(1);
}
$format = $formats[$fname];
$mode = $format === GPUPOST_MOD9 ? GPUPOST_POSTINGS : GPUPOST_VALUES;
if (!extension_loaded('gpupost')) {
    fwrite(STDERR, "the gpupost extension is not loaded (php -d extension=gpupost ...)\n");
    exit(1);
}
$queries = isset($opts['query']) ? (array)$opts['query'] : [
    'free software', 'warranty merchantability fitness', 'copyright holders permission notice',
    'public license version', 'apache license', 'source code distribution binary',
    'modify redistribute', 'patent grant',
];
$limit = (int)($opts['limit'] ?? 0);
require __DIR__ . '/corpus.php';

function ms(int $t0): string
{
    return sprintf('%.3f ms', (hrtime(true) - $t0) / 1e6);
}

/* 1. The corpus: /usr/share/common-licenses and every package's copyright file. */
$t0 = hrtime(true);
[$files, $index, $bytes, $tokens, $lengths] = demo_corpus($limit);   /* term => [doc => [positions]], doc => tokens */
printf("corpus: %d documents, %.1f MB, %d tokens, %d terms (read and tokenized in %s)\n",
    count($files), $bytes / 1e6, $tokens, count($index), ms($t0));

/* 2. One blob per term: Yioop-format postings (MOD9), or the docID list (S9, QS). */
$t0 = hrtime(true);
$blobs = [];
$postings = 0;
foreach ($index as $term => $docs) {
    $blobs[$term] = match ($format) {
        GPUPOST_MOD9 => gpu_encode_postings($docs, GPUPOST_MOD9, GPUPOST_POSTINGS),
        GPUPOST_S9 => gpu_encode_postings(array_keys($docs), GPUPOST_S9, GPUPOST_VALUES, ['delta' => 2]),
        GPUPOST_QS => gpu_encode_postings(array_keys($docs), GPUPOST_QS),
    };
    $postings += count($docs);
}
$size = array_sum(array_map('strlen', $blobs));
printf("index: %d postings in %d %s blobs, %.2f MB (%.1f bits per %s), encoded in %s\n",
    $postings, count($blobs), strtoupper($fname), $size / 1e6,
    8 * $size / max(1, $format === GPUPOST_MOD9 ? $tokens + $postings : $postings),
    $format === GPUPOST_MOD9 ? 'position or doc' : 'docID', ms($t0));
unset($index);

$info = gpu_info();
printf("device: %s\n", $info['device'] ? "{$info['device']['name']} ({$info['device']['type']}, {$info['platform']['name']})"
    : 'none: ' . $info['reason']);

/* 3. The index: the lists resident (on the device where there is one), queries answered there. */
$t0 = hrtime(true);
$ix = new GpuPost\Index($blobs, $format, ['doc_lengths' => $lengths]);   /* lengths: BM25 ranking */
$ii = $ix->info();
printf("GpuPost\\Index: %d terms, %d docs, %d postings; %.2f MB on the host, %.2f MB on the device; built in %s\n",
    $ii['terms'], $ii['docs'], $ii['postings'], $ii['bytes_host'] / 1e6, $ii['bytes_device'] / 1e6, ms($t0));
$fts = class_exists('SQLite3') ? demo_fts5($files) : null;
$parsed = [];
foreach ($queries as $q) {
    $terms = demo_tokens($q);
    $parsed[$q] = $terms;
    $t0 = hrtime(true);
    $hits = $ix->search($terms);
    $took = ms($t0);
    printf("\nquery \"%s\": %d docs have every word (%s on %s)", $q, count($hits), $took, $ix->info()['last_backend']);
    if ($format === GPUPOST_MOD9 && count($terms) > 1) {
        $t0 = hrtime(true);
        $ph = $ix->search($terms, ['op' => GPUPOST_PHRASE]);
        printf(", %d have the phrase (%s)", count($ph), ms($t0));
    }
    if ($fts) {
        $f = demo_fts5_docs($fts, $terms, false);
        printf("; SQLite FTS5: %d docs, %s", count($f), $f === $hits ? 'the same' : 'DIFFERENT');
        if ($f !== $hits) {
            exit(1);
        }
    }
    echo "\n";
    /* the best three by BM25 (gpupost's scores are SQLite FTS5's -bm25()), FTS5's beside */
    $top = $ix->search($terms, ['limit' => 3]);
    $ftop = $fts ? demo_fts5_top($fts, $terms, false, 3) : [];
    foreach ($top as $doc => $score) {
        printf("  BM25 %-11.6g%s  doc %5d  %s\n", $score, $fts ? sprintf(" (FTS5 %-11.6g)", $ftop[$doc] ?? NAN) : '', $doc, $files[$doc]);
    }
    if ($fts && array_keys($ftop) !== array_keys($top)) {
        echo "  FTS5's best three are DIFFERENT: ", json_encode($ftop), "\n";
        exit(1);
    }
}

/* FTS5's query language: MATCH expressions, answered by gpupost and by FTS5 on the same docs */
if ($format === GPUPOST_MOD9) {
    echo "\nMATCH expressions (SQLite FTS5's query language), gpupost beside FTS5:\n";
    foreach (['license NOT gpl', '"free software" OR bsd*', 'NEAR(warranty merchantability, 5)', '^format AND (gpl OR lgpl)'] as $m) {
        $t0 = hrtime(true);
        $hits = $ix->search($m);
        $took = ms($t0);
        $top = array_keys($ix->search($m, ['limit' => 3]));
        printf("  %-36s %4d docs (%s)", $m, count($hits), $took);
        if ($fts) {
            $st = $fts->prepare('SELECT rowid - 1 FROM docs WHERE docs MATCH :q ORDER BY rowid');
            $st->bindValue(':q', $m);
            $r = $st->execute();
            $f = [];
            while ($row = $r->fetchArray(SQLITE3_NUM)) $f[] = $row[0];
            $st = $fts->prepare('SELECT rowid - 1 FROM docs WHERE docs MATCH :q ORDER BY bm25(docs), rowid LIMIT 3');
            $st->bindValue(':q', $m);
            $r = $st->execute();
            $ftop = [];
            while ($row = $r->fetchArray(SQLITE3_NUM)) $ftop[] = $row[0];
            printf("; FTS5: %d docs, %s; best three %s", count($f), $f === $hits ? 'the same' : 'DIFFERENT', $ftop === $top ? 'the same' : 'DIFFERENT');
            if ($f !== $hits || $ftop !== $top) {
                echo "\n";
                exit(1);
            }
        }
        echo "\n";
    }
}

/* The same queries as one batch, against what a PHP user does today: decode each query's lists
 * (gpu_decode_postings_batch) and intersect them with array_intersect_key. */
$t0 = hrtime(true);
$batch = $ix->searchBatch($parsed);
$batch_time = ms($t0);
$batch_on = $ix->info()['last_backend'];
$t0 = hrtime(true);
$php = [];
foreach ($parsed as $q => $terms) {
    $lists = [];
    foreach (array_unique($terms) as $t) {
        $lists[$t] = $blobs[$t] ?? '';
    }
    $hits = null;
    foreach (gpu_decode_postings_batch($lists, $format, $format === GPUPOST_MOD9 ? GPUPOST_DOCS : GPUPOST_VALUES) as $docs) {
        $docs = array_flip($docs);
        $hits = $hits === null ? $docs : array_intersect_key($hits, $docs);
    }
    $php[$q] = array_keys($hits ?? []);
    sort($php[$q]);
}
printf("\n%d queries in one searchBatch: %s on %s; decode + array_intersect_key in PHP: %s; answers %s\n",
    count($parsed), $batch_time, $batch_on, ms($t0), $php === $batch ? 'identical' : 'DIFFERENT');
if ($php !== $batch) {
    exit(1);
}

/* 4. The whole index in one batch, on the host path and on the device, compared. */
echo "\nwhole index, one batch call per path:\n";
$results = [];
$modes = $format === GPUPOST_MOD9 ? [GPUPOST_DOCS => 'docs', GPUPOST_POSTINGS => 'postings'] : [GPUPOST_VALUES => 'docIDs'];
foreach (['host' => PHP_INT_MAX, 'device' => 0] as $path => $threshold) {
    ini_set('gpupost.min_device_values', (string)$threshold);
    foreach ($modes as $m => $name) {
        $t0 = hrtime(true);
        $r = gpu_decode_postings_batch($blobs, $format, $m);
        $took = ms($t0);
        printf("  %-6s %-8s %s on %s\n", $path, $name, $took, gpu_info()['last_backend']);
        $results[$name][$path] = $r;
    }
}
/* the queries as one batch through the index, on each path */
foreach (['host' => 'host', 'device' => 'auto'] as $path => $device) {
    ini_set('gpupost.min_device_values', $path === 'host' ? (string)PHP_INT_MAX : '0');
    $one = new GpuPost\Index($blobs, $format, ['device' => $device, 'doc_lengths' => $lengths]);
    $t0 = hrtime(true);
    $r = $one->searchBatch($parsed);
    printf("  %-6s %-8s %s on %s\n", $path, 'queries', ms($t0), $one->info()['last_backend']);
    $results['queries'][$path] = $r;
    $t0 = hrtime(true);
    $r = $one->searchBatch($parsed, ['op' => GPUPOST_OR, 'limit' => 10]);
    printf("  %-6s %-8s %s on %s\n", $path, 'OR top10', ms($t0), $one->info()['last_backend']);
    $results['BM25 OR top 10'][$path] = $r;
}
ini_restore('gpupost.min_device_values');
foreach ($results as $name => $r) {
    if (count($r) === 2) {
        printf("  %s: host and device results %s\n", $name, $r['host'] === $r['device'] ? 'identical' : 'DIFFER');
        if ($r['host'] !== $r['device']) {
            exit(1);
        }
    }
}
