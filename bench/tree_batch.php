<?php
/* Query trees in batches on the device against the host's walk, on an index file and its query
 * log (bench/gen_corpus's: "and t1 t2 ..." and "phrase t1 t2 ..." lines): trees of 2 to 8 terms
 * of several shapes, as MATCH strings, every answer of the device checked against the host's
 * before anything is timed (docs; the top 10's docs in order and scores to 1e-9). Rows: each
 * shape, every match and the top 10 by bm25(): the device with batches of --batch trees
 * (searchBatch), the host one tree a call on one core, the device one tree a call. Not a test.
 *
 *   php bench/tree_batch.php INDEX.gpix QUERY_LOG [--batch=10000] [--trees=10000] [--seconds=3]
 *       [--shapes=NAME,NAME...]   (the shapes' names as the table's first column; default all)
 */
$args = [];
$pos = [];
foreach (array_slice($_SERVER['argv'], 1) as $a) {
    if (preg_match('/^--([a-z]+)=(.*)$/', $a, $m)) $args[$m[1]] = $m[2];
    else $pos[] = $a;
}
if (count($pos) < 2) {
    fwrite(STDERR, "usage: php bench/tree_batch.php INDEX.gpix QUERY_LOG [--batch=10000] [--trees=10000] [--seconds=3]\n");
    exit(2);
}
[$file, $logfile] = $pos;
$batch = (int)($args['batch'] ?? 10000);
$count = (int)($args['trees'] ?? 10000);
$seconds = (float)($args['seconds'] ?? 3);

/* the log's AND queries (words outside the 100 most frequent terms) and its phrases of such
 * words only (a phrase of stop words is most of the corpus's docs a tree) */
$and = $phrase = $seen = [];
foreach (file($logfile, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
    $w = explode(' ', $line);
    $kind = array_shift($w);
    if ($kind === 'and') {
        $and[] = $w;
        foreach ($w as $t) $seen[$t] = true;
    } elseif ($kind === 'phrase') {
        $phrase[] = $w;
    }
}
$phrase = array_values(array_filter($phrase, function ($w) use ($seen) {
    foreach ($w as $t) if (!isset($seen[$t])) return false;
    return true;
}));
if (count($phrase) < 10) {
    fwrite(STDERR, "the log has too few phrases without stop words\n");
    exit(2);
}
mt_srand(38);
$term = fn() => $and[mt_rand(0, count($and) - 1)][0];
$q = fn(array $w) => '"' . implode('" "', $w) . '"';
$shapes = [
    'a b NOT c' => function () use ($and, $term, $q) {
        $w = $and[mt_rand(0, count($and) - 1)];
        return $q(array_slice($w, 0, 2)) . ' NOT "' . $term() . '"';
    },
    '(a OR b) AND c' => function () use ($and, $term) {
        $w = $and[mt_rand(0, count($and) - 1)];
        return '("' . $w[0] . '" OR "' . $term() . '") AND "' . $w[1] . '"';
    },
    '"phrase" OR a' => function () use ($phrase, $term) {
        return '"' . implode(' ', $phrase[mt_rand(0, count($phrase) - 1)]) . '" OR "' . $term() . '"';
    },
    'NEAR(a b, 5)' => function () use ($phrase) {
        $w = $phrase[mt_rand(0, count($phrase) - 1)];
        return 'NEAR("' . $w[0] . '" "' . $w[count($w) - 1] . '", 5)';
    },
    /* a term and the terms it begins, one item of the kernel: on the synthetic corpus t12345*
     * is t12345 and t123450 to t123459 (a shorter term begins more than a leaf holds) */
    'a* b' => function () use ($and) {
        do $w = $and[mt_rand(0, count($and) - 1)]; while (strlen($w[0]) < 6);
        return $w[0] . '* "' . $w[1] . '"';
    },
    '8 terms' => function () use ($and, $term) {
        $w = $and[mt_rand(0, count($and) - 1)];
        return '("' . $w[0] . '" OR "' . $term() . '") AND ("' . $w[1] . '" OR "' . $term() . '" OR "' . $term() . '") NOT ("'
             . $term() . '" OR "' . $term() . '" OR "' . $term() . '")';
    },
];

if (isset($args['shapes'])) $shapes = array_intersect_key($shapes, array_flip(explode(',', $args['shapes'])));
$dev = GpuPost\Index::open($file, ['device' => 'gpu']);
$host = GpuPost\Index::open($file, ['device' => 'host']);
$bad = 0;
$info = gpu_info();
echo "Query trees, " . basename($file) . ", $count trees a shape, device: " . ($info['device']['name'] ?? 'none')
    . "; every device answer equal to the host's (docs; top 10 scores to 1e-9).\n\n";
echo "| tree | answer | answers a tree | device, batches of $batch: q/s | p50 ms a batch | host, one a call: q/s | p50 ms | p99 ms | device, one a call: q/s | device batches / host |\n";
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
foreach ($shapes as $name => $make) {
    $trees = [];
    for ($i = 0; $i < $count; $i++) $trees[] = $make();
    foreach (['every match' => [], 'top 10' => ['limit' => 10]] as $what => $o) {
        /* checked: the device's answers are the host's */
        $matches = 0;
        foreach (array_chunk($trees, $batch) as $chunk) {
            $d = $dev->searchBatch($chunk, $o);
            if ($dev->info()['last_backend'] !== 'opencl') { fwrite(STDERR, "$name: the device did not answer\n"); exit(1); }
            foreach ($chunk as $k => $t) {
                $h = $host->search($t, $o);
                $matches += count($h);
                $same = array_keys($d[$k]) === array_keys($h);
                foreach ($o ? $h : [] as $doc => $sc) $same = $same && abs($d[$k][$doc] - $sc) <= 1e-9 * abs($sc);
                if (!$same && $bad++ < 5) fwrite(STDERR, "$name $what: device differs from host: $t\n");
            }
        }
        $timed = function (callable $run, int $per) use ($seconds, $trees, $o) {
            $n = 0;
            $lat = [];
            $start = hrtime(true);
            do {
                foreach (array_chunk($trees, $per) as $chunk) {
                    $t = hrtime(true);
                    $run($chunk, $o);
                    $lat[] = (hrtime(true) - $t) / 1e6;
                    $n += count($chunk);
                    if ((hrtime(true) - $start) / 1e9 > $seconds) break 2;
                }
            } while (true);
            sort($lat);
            return [$n / ((hrtime(true) - $start) / 1e9), $lat[(int)(count($lat) / 2)], $lat[min(count($lat) - 1, (int)(count($lat) * 0.99))]];
        };
        $d = $timed(fn($c, $o) => $dev->searchBatch($c, $o), $batch);
        $h = $timed(function ($c, $o) use ($host) { foreach ($c as $t) $host->search($t, $o); }, 1);
        $d1 = $timed(fn($c, $o) => $dev->searchBatch($c, $o), 1);
        printf("| %s | %s | %.1f | %.0f | %.2f | %.0f | %.3f | %.3f | %.0f | %.1fx |\n", $name, $what, $matches / $count, $d[0], $d[1], $h[0], $h[1], $h[2], $d1[0], $d[0] / $h[0]);
        flush();
    }
}
if ($bad) {
    fwrite(STDERR, "$bad answers differ\n");
    exit(1);
}
