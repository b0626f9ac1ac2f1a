<?php
/* Yioop's own retrieval and summaries beside gpupost's, on one IndexArchiveBundle written by
 * Yioop's own code (scripts/yioop-bundle-lib.php: its queue server's steps) from real text
 * (Python's documentation sources, Debian's licenses and package copyright files, a page a
 * paragraph), in one run, each answer checked:
 *
 *   php -d extension=modules/gpupost.so bench/yioop_bundle.php YIOOP_SRC [WORK_DIR] [PAGES] [QUERIES]
 *
 * YIOOP_SRC: a Yioop 2021 checkout's src/ (as scripts/yioop-bundle-testdata.php); WORK_DIR holds
 * the bundle (built once, default /tmp/gpupost-yioop-bench); PAGES (default 30000) in generations
 * of 8,000 docs; QUERIES (default 300) conjunctions of two or three words of a random page, as a
 * user would search it.
 *
 * Retrieval: every match of each conjunction over every generation, Yioop's way (its
 * IntersectIterator over WordIterators, which read each generation's dictionary and postings
 * through IndexManager, as PhraseModel builds them, without the safe:/lang: words it adds and
 * without grouping or ranking) against GpuPost\Index::search() on the bundle opened by
 * openYioopBundle (host path). The matches are compared as (generation, summary offset).
 * Summaries: ten docs' pages a query, Yioop's IndexArchiveBundle::getPage against
 * yioopSummaries(), compared with serialize(). Needs python3-doc for the larger corpus (without
 * it, the other texts alone). */
namespace {
    use seekquarry\yioop\library as L;
    use seekquarry\yioop\library\index_bundle_iterators as I;

    [, $src, $work, $n_pages, $n_queries] = $argv + [null, null, '/tmp/gpupost-yioop-bench', 30000, 300];
    if (!$src) {
        fwrite(STDERR, "usage: php bench/yioop_bundle.php YIOOP_SRC [WORK_DIR] [PAGES] [QUERIES]\n");
        exit(2);
    }
    require __DIR__ . '/../scripts/yioop-bundle-lib.php';
    $per_generation = 8000;
    yioop_load($src, $work, $per_generation);
    require_once "$src/library/IndexManager.php";
    foreach (['IndexBundleIterator', 'WordIterator', 'IntersectIterator'] as $c) {
        require_once "$src/library/index_bundle_iterators/$c.php";
    }
    $name = '1600000000';
    $dir = "$work/cache/IndexData$name";

    /* --- the corpus and the bundle (built once) --- */
    $pages = yioop_docs_corpus((int)$n_pages);
    $info = yioop_bundle_once($dir, $pages, $per_generation);
    $bytes = 0;
    foreach (glob("$dir/posting_doc_shards/*") as $f) $bytes += filesize($f);
    printf("bundle: %d pages, generations 0..%d (the dictionary's last %d), shards %.1f MB\n", count($pages),
        $info['ACTIVE'], $info['LAST_DICTIONARY_SHARD'], $bytes / 1e6);

    /* --- the queries: two or three words of a random page, as Yioop stems them --- */
    mt_srand(39);
    $queries = [];
    while (count($queries) < $n_queries) {
        $page = $pages[mt_rand(0, count($pages) - 1)];
        $words = array_keys(L\PhraseParser::extractPhrasesInLists($page[L\CrawlConstants::DESCRIPTION], 'en-US')['WORD_LIST']);
        $words = array_values(array_filter($words, fn($w) => strlen($w) > 2 && !str_contains($w, ':')));
        if (count($words) < 3) continue;
        shuffle($words);
        $queries[] = array_slice($words, 0, count($queries) % 4 == 3 ? 3 : 2);
    }

    /* --- gpupost: open, then each query's matches --- */
    $t = microtime(true);
    $ix = GpuPost\Index::openYioopBundle($dir, ['device' => 'host']);
    $open = microtime(true) - $t;
    $gp = [];
    $t = microtime(true);
    foreach ($queries as $q => $words) $gp[$q] = $ix->search(array_map(fn($w) => L\crawlHashWord($w, true), $words));
    $gp_time = microtime(true) - $t;
    $where = [];
    foreach ($gp as $q => $docs) {
        foreach ($ix->attributes($docs) as $d => $a) $where[$q][] = [(int)$a['generation'], (int)$a['summary_offset']];
    }

    /* --- Yioop: the same conjunctions through its iterators --- */
    /* Yioop's error handler prints PHP 8.2's deprecation notices of its dynamic properties (a
     * few a query, as it would in an installation on 8.2): into a buffer, thrown away */
    $yioop = [];
    ob_start();
    $t = microtime(true);
    foreach ($queries as $q => $words) {
        L\IndexManager::clearCache();   /* a fresh request, as PHP serves one: no index object kept */
        $its = [];
        foreach ($words as $w) $its[] = new I\WordIterator(L\crawlHashWord($w, true), $name, true, null, 200);
        $it = count($its) > 1 ? new I\IntersectIterator($its, array_keys($its)) : $its[0];
        $found = [];
        while (is_array($block = $it->nextDocsWithWord())) {
            foreach ($block as $item) $found[] = [(int)$item[L\CrawlConstants::GENERATION], (int)$item[L\CrawlConstants::SUMMARY_OFFSET]];
        }
        sort($found);
        $yioop[$q] = $found;
    }
    $yioop_time = microtime(true) - $t;
    ob_end_clean();
    $equal = $missed = $other = $matches = 0;
    foreach ($queries as $q => $words) {
        $mine = $where[$q] ?? [];
        sort($mine);
        $matches += count($mine);
        if ($mine === $yioop[$q]) $equal++;
        elseif (!array_udiff($yioop[$q], $mine, fn($a, $b) => $a <=> $b)) $missed++;
        else $other++;
    }
    printf("open: gpupost %.1f ms (the whole bundle decoded; Yioop opens lazily)\n", 1000 * $open);
    printf("retrieval, %d conjunctions (%d matches): Yioop %.3f ms a query, gpupost %.3f ms (%.0fx); equal %d, Yioop missed some %d, other %d\n",
        count($queries), $matches, 1000 * $yioop_time / count($queries), 1000 * $gp_time / count($queries),
        $yioop_time / max($gp_time, 1e-9), $equal, $missed, $other);

    /* --- summaries: ten docs a query --- */
    ob_start();
    $reader = new L\IndexArchiveBundle($dir);
    ob_end_clean();
    $y_time = $g_time = 0.0;
    $same = $pages_read = 0;
    foreach ($gp as $q => $docs) {
        $docs = array_slice($docs, 0, 10);
        if (!$docs) continue;
        $a = $ix->attributes($docs);
        $t = microtime(true);
        $theirs = [];
        foreach ($docs as $d) $theirs[$d] = $reader->getPage((int)$a[$d]['summary_offset'], (int)$a[$d]['generation']);
        $y_time += microtime(true) - $t;
        $t = microtime(true);
        $mine = $ix->yioopSummaries($docs);
        $g_time += microtime(true) - $t;
        foreach ($docs as $d) $same += serialize($mine[$d]) === serialize($theirs[$d]);
        $pages_read += count($docs);
    }
    printf("summaries, %d pages: Yioop's getPage %.3f ms a page, yioopSummaries %.3f ms (%.1fx); equal %d\n",
        $pages_read, 1000 * $y_time / max(1, $pages_read), 1000 * $g_time / max(1, $pages_read), $y_time / max($g_time, 1e-9), $same);
}
