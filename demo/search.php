<?php
/* gpupost demo: index the license texts every Debian machine has into Yioop-format posting
 * lists (gpu_encode_postings), then answer multi-word queries by decoding the lists through
 * gpupost in one batch per query and intersecting the docs in PHP. Prints what ran where and
 * how long each step took.
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

function ms(int $t0): string
{
    return sprintf('%.1f ms', (hrtime(true) - $t0) / 1e6);
}

/* 1. The corpus: /usr/share/common-licenses and every package's copyright file. */
$t0 = hrtime(true);
$files = array_merge(glob('/usr/share/common-licenses/*') ?: [], glob('/usr/share/doc/*/copyright') ?: []);
$files = array_values(array_filter($files, 'is_file'));
if ($limit > 0) {
    $files = array_slice($files, 0, $limit);
}
$index = [];   /* term => [doc => [positions]] */
$bytes = 0;
$tokens = 0;
foreach ($files as $doc => $path) {
    $text = strtolower((string)file_get_contents($path));
    $bytes += strlen($text);
    $words = preg_split('/[^a-z0-9]+/', $text, -1, PREG_SPLIT_NO_EMPTY);
    foreach ($words as $i => $w) {
        $index[$w][$doc][] = $i + 1; /* Yioop numbers positions from 1 */
    }
    $tokens += count($words);
}
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

/* 3. Queries: all lists of a query decoded in one batch call, docs intersected in PHP. */
foreach ($queries as $q) {
    $terms = array_values(array_unique(preg_split('/[^a-z0-9]+/', strtolower($q), -1, PREG_SPLIT_NO_EMPTY)));
    $lists = [];
    foreach ($terms as $t) {
        $lists[$t] = $blobs[$t] ?? '';
    }
    $t0 = hrtime(true);
    $decoded = gpu_decode_postings_batch($lists, $format, $mode);
    if ($mode === GPUPOST_VALUES) { /* docID lists: doc => [] so that the same code ranks them */
        $decoded = array_map(fn($docs) => array_fill_keys($docs, []), $decoded);
    }
    $decode_time = ms($t0);
    $ran = gpu_info()['last_backend'];
    $t0 = hrtime(true);
    $hits = null;
    foreach ($decoded as $t => $docs) {
        $hits = $hits === null ? $docs : array_intersect_key($hits, $docs);
    }
    $score = [];
    foreach (array_keys($hits ?? []) as $doc) {
        $score[$doc] = 0;
        foreach ($decoded as $docs) {
            $score[$doc] += count($docs[$doc]);
        }
    }
    arsort($score);
    printf("\nquery \"%s\": %d docs match (lists: %s); decode %s on %s, intersect %s\n", $q, count($score),
        implode(', ', array_map(fn($t) => "$t " . count($decoded[$t]), $terms)), $decode_time, $ran, ms($t0));
    foreach (array_slice($score, 0, 3, true) as $doc => $s) {
        printf($mode === GPUPOST_VALUES ? "  doc %5d  %s\n" : "  %4d occurrences  %s\n",
            $mode === GPUPOST_VALUES ? $doc : $s, $files[$doc]);
    }
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
ini_restore('gpupost.min_device_values');
foreach ($results as $name => $r) {
    if (count($r) === 2) {
        printf("  %s: host and device results %s\n", $name, $r['host'] === $r['device'] ? 'identical' : 'DIFFER');
        if ($r['host'] !== $r['device']) {
            exit(1);
        }
    }
}
