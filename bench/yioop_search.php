<?php
/* Yioop's whole search, a first page of ten with its summaries and snippets, as Yioop answers it
 * and as Yioop patched with examples/yioop/gpupost-search.patch answers it (its PhraseModel
 * asking gpupost for the ranked groups and their summaries), in one run on one bundle written by
 * Yioop's own code; every answer compared:
 *
 *   php -d extension=modules/gpupost.so bench/yioop_search.php YIOOP_SRC [WORK_DIR] [PAGES] [QUERIES] [CORPUS]
 *
 * YIOOP_SRC: a Yioop 2021 checkout's src/ (as scripts/yioop-bundle-testdata.php); the patched
 * copy is made under WORK_DIR (default /tmp/gpupost-yioop-bench[-CORPUS], where the bundle is
 * built once: PAGES, default 30000, a page a paragraph, in generations of 8,000). CORPUS: docs
 * (default: Python's documentation, Debian's licenses and copyright files) or changelogs (the
 * installed packages' change logs). QUERIES (default 300): words of a random page as a user types
 * them: two (most), three, a quoted pair, two and a negated word, two or two others ("|").
 *
 * Each variant runs in its own PHP process (the two Yioops cannot share one): every query once to
 * warm the page cache, then every query timed, each as a fresh request (IndexManager's cache
 * cleared, a new PhraseModel) through PhraseModel::getPhrasePageResults. gpupost opens the bundle
 * once (persistent, as in php-fpm) and answers on the host. A query's answers are equal when
 * TOTAL_ROWS, the URLs, their order and their SCOREs are; where they differ, the reason is
 * given: Yioop's dictionary lost some of a word's generations (its iterators then miss those
 * matches; gpupost finds them), or TOTAL_ROWS past 200 groups (Yioop's estimate, gpupost's count
 * of every match). */
namespace {
    use seekquarry\yioop\configs as C;
    use seekquarry\yioop\library as L;

    $argv += [null, null, null, null, null];
    if ($argv[1] === '--child') {
        child($argv[2], $argv[3], $argv[4]);
        exit(0);
    }
    [, $src, $work, $n_pages, $n_queries, $corpus] = $argv + [null, null, null, null, null, null];
    $corpus ??= 'docs';
    $work = $work ?: '/tmp/gpupost-yioop-bench' . ($corpus === 'docs' ? '' : "-$corpus");
    $n_pages = $n_pages ?: 30000;
    $n_queries = $n_queries ?: 300;
    if (!$src || !is_file("$src/configs/Config.php")) {
        fwrite(STDERR, "usage: php -d extension=modules/gpupost.so bench/yioop_search.php YIOOP_SRC [WORK_DIR] [PAGES] [QUERIES] [docs|changelogs]\n");
        exit(2);
    }
    require __DIR__ . '/../scripts/yioop-bundle-lib.php';
    yioop_load($src, $work, 8000);
    $name = '1600000000';
    $dir = "$work/cache/IndexData$name";
    $pages = yioop_docs_corpus((int)$n_pages, $corpus);
    $info = yioop_bundle_once($dir, $pages, 8000);
    printf("bundle: %d pages, generations 0..%d (the dictionary's last %d)\n", count($pages), $info['ACTIVE'],
        $info['LAST_DICTIONARY_SHARD']);

    /* --- Yioop patched, beside the checkout --- */
    $patched = "$work/yioop-patched";
    exec('rm -rf ' . escapeshellarg($patched) . ' && mkdir -p ' . escapeshellarg($patched) . ' && cp -a ' .
        escapeshellarg(realpath($src)) . ' ' . escapeshellarg("$patched/src") . ' && patch -s -p1 -d ' .
        escapeshellarg($patched) . ' < ' . escapeshellarg(__DIR__ . '/../examples/yioop/gpupost-search.patch'), $out, $rc);
    if ($rc !== 0) {
        fwrite(STDERR, "the patch does not apply to $src\n");
        exit(1);
    }

    /* --- the queries --- */
    mt_srand(41);
    $queries = [];
    while (count($queries) < $n_queries) {
        preg_match_all('/[a-z]{3,}/', strtolower($pages[mt_rand(0, count($pages) - 1)][L\CrawlConstants::DESCRIPTION]), $m);
        $w = array_values(array_unique($m[0]));
        if (count($w) < 4) continue;
        shuffle($w);
        $queries[] = match (count($queries) % 20) {
            3, 7, 13, 17 => "$w[0] $w[1] $w[2]",
            5, 15 => "\"$w[0] $w[1]\"",
            9, 19 => "$w[0] $w[1] -$w[2]",
            11 => "$w[0] $w[1] | $w[2] $w[3]",
            default => "$w[0] $w[1]",
        };
    }
    file_put_contents("$work/queries.json", json_encode($queries));

    /* --- each variant in its own process --- */
    /* the children load gpupost as this process did: from php.ini, or this checkout's build */
    $php = PHP_BINARY . ' -d memory_limit=4G';
    if (trim((string)shell_exec(PHP_BINARY . " -r 'echo (int)extension_loaded(\"gpupost\");'")) !== '1') {
        $php .= ' -d extension=' . escapeshellarg(realpath(__DIR__ . '/../modules/gpupost.so') ?: 'gpupost.so');
    }
    $answers = [];
    foreach (['yioop' => realpath($src), 'patched' => "$patched/src"] as $variant => $tree) {
        $cmd = "$php " . escapeshellarg(__FILE__) . " --child " . escapeshellarg($variant) . ' ' . escapeshellarg($tree) . ' ' . escapeshellarg($work);
        @unlink("$work/answers-$variant.json");
        $log = shell_exec("$cmd 2>&1");   /* Yioop prints PHP 8.2's deprecation notices */
        $answers[$variant] = json_decode((string)@file_get_contents("$work/answers-$variant.json"), true);
        if (!is_array($answers[$variant])) {
            fwrite(STDERR, "$variant failed: " . substr((string)$log, -2000) . "\n");
            exit(1);
        }
    }

    /* --- the answers compared --- */
    $ix = GpuPost\Index::openYioopBundle($dir, ['device' => 'host']);
    $equal = $rows_only = $lost = $other = 0;
    $why = [];
    foreach ($queries as $q => $query) {
        $a = $answers['yioop']['answers'][$q];
        $b = $answers['patched']['answers'][$q];
        if ($b['why'] !== null) $why[$b['why']] = ($why[$b['why']] ?? 0) + 1;
        if ($a === $b || ($a['pages'] === $b['pages'] && $a['total_rows'] === $b['total_rows'])) { $equal++; continue; }
        /* where Yioop's iterators see each word: its dictionary's generations against the shards' */
        $sees_all = true;
        foreach ($a['seen'] as $id => $gens) {
            $have = array_values(array_unique(array_map(fn($x) => (int)$x['generation'], $ix->attributes($ix->search([hex2bin($id)])))));
            sort($have);
            if ($have !== $gens) $sees_all = false;
        }
        if (!$sees_all) { $lost++; continue; }
        if ($a['pages'] === $b['pages'] && $a['groups'] >= 200) { $rows_only++; continue; }
        $other++;
        if ($other <= 3) echo "differs: $query\n  yioop   ", json_encode($a), "\n  patched ", json_encode($b), "\n";
    }
    $ta = $answers['yioop']['seconds'] / count($queries);
    $tb = $answers['patched']['seconds'] / count($queries);
    printf("%d queries, first page of 10 with summaries and snippets, a fresh request each:\n", count($queries));
    printf("  Yioop %.2f ms a query, Yioop with gpupost %.2f ms (%.1fx)\n", 1000 * $ta, 1000 * $tb, $ta / max($tb, 1e-9));
    printf("  answers equal %d; TOTAL_ROWS only (past 200 groups: Yioop's estimate, gpupost's count) %d;\n", $equal, $rows_only);
    printf("  Yioop's dictionary lost some of a word's generations (gpupost finds those matches) %d; other %d\n", $lost, $other);
    foreach ($why as $w => $n) printf("  answered by Yioop's own path (%s): %d\n", $w, $n);

    /* --- one variant: the queries through its PhraseModel, the answers into WORK/answers-VARIANT.json --- */
    function child(string $variant, string $tree, string $work): void
    {
        require __DIR__ . '/../scripts/yioop-bundle-lib.php';
        yioop_load($tree, $work, 8000);
        require __DIR__ . '/../scripts/yioop-phrase-model.php';
        $name = '1600000000';
        $queries = json_decode(file_get_contents("$work/queries.json"), true);
        $run = function (string $query) use ($name): array {
            L\IndexManager::clearCache();
            ob_start();
            $model = new seekquarry\yioop\models\PhraseModel(C\DB_NAME, false);
            $model->index_name = $name;
            $results = $model->getPhrasePageResults($query, 0, 10, true, null, false, 0);
            ob_end_clean();
            return [$results, $model];
        };
        foreach ($queries as $query) $run($query);   /* the page cache warmed, gpupost's bundle opened */
        $t = microtime(true);
        $kept = [];
        foreach ($queries as $query) $kept[] = $run($query);
        $seconds = microtime(true) - $t;
        $answers = [];
        foreach ($queries as $q => $query) {
            [$results, $model] = $kept[$q];
            $answer = ['total_rows' => (int)$results['TOTAL_ROWS'],
                'pages' => array_map(fn($p) => [$p[L\CrawlConstants::URL] ?? null, (float)$p[L\CrawlConstants::SCORE]], $results['PAGES'] ?? []),
                'why' => $variant === 'patched' ? ($model->gpupost_why ?? null) : null];
            if ($variant === 'yioop') {
                /* how many groups Yioop ranked, and where its iterators see each word */
                $recording = YioopRecordingPhraseModel::search($name, $query);
                $answer['groups'] = is_array($recording) ? count($recording[2]) : 0;
                $answer['seen'] = [];
                foreach (is_array($recording) ? $recording[1] : [] as $s) {
                    if (!is_array($s) || !isset($s['KEYS'])) continue;
                    $ids = array_merge(array_map(fn($k) => L\unbase64Hash($k), $s['KEYS']),
                        array_map(fn($k) => L\unbase64Hash($k), $s['DISALLOW_KEYS']));
                    foreach ($ids as $id) {
                        ob_start();
                        $info = L\IndexManager::getWordInfo($name, $id, -1, -1, 20, true);
                        ob_end_clean();
                        $gens = array_values(array_unique(array_map(fn($e) => (int)$e[0], $info[1] ?? [])));
                        sort($gens);
                        $answer['seen'][bin2hex($id)] = $gens;
                    }
                }
            }
            $answers[] = $answer;
        }
        file_put_contents("$work/answers-$variant.json", json_encode(['seconds' => $seconds, 'answers' => $answers]));
    }
}
