<?php
/* One process, one query a call, on the host path: the microseconds a query of each kind takes
 * over index files, for comparing builds and file versions on one core (bench/workers.php runs
 * many processes). Each file is opened once; for each kind, the log's first --queries queries of
 * the kind are asked once (a version 2 list is checked at its first use), then --reps times,
 * timed, the files in turn, --rounds times (the best round a file and kind is printed), so that
 * files compared are measured side by side. Every file's matches must be the first's. Not a test.
 *
 *   php bench/query_kinds.php QUERIES KINDS INDEX.gpix [INDEX2.gpix ...] [--reps=10] [--queries=2000] [--rounds=3]
 *   KINDS: a comma-separated list of and, phrase, and10, or10
 */
$args = [];
$pos = [];
foreach (array_slice($_SERVER['argv'], 1) as $a) {
    if (preg_match('/^--([a-z]+)=(.*)$/', $a, $m)) $args[$m[1]] = $m[2];
    else $pos[] = $a;
}
if (count($pos) < 3) {
    fwrite(STDERR, "usage: php bench/query_kinds.php QUERIES and,phrase,and10,or10 INDEX.gpix [INDEX2.gpix ...] [--reps=10] [--queries=2000] [--rounds=3]\n");
    exit(2);
}
$qfile = array_shift($pos);
$kinds = explode(',', array_shift($pos));
$reps = (int)($args['reps'] ?? 10);
$rounds = (int)($args['rounds'] ?? 3);
$all = ['and' => ['op' => GPUPOST_AND], 'phrase' => ['op' => GPUPOST_PHRASE],
        'and10' => ['op' => GPUPOST_AND, 'limit' => 10], 'or10' => ['op' => GPUPOST_OR, 'limit' => 10]];
$ixs = [];
foreach ($pos as $file) $ixs[$file] = GpuPost\Index::open($file, ['device' => 'host']);
$log = file($qfile, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES);
$bad = 0;
foreach ($kinds as $kind) {
    if (!isset($all[$kind])) { fwrite(STDERR, "unknown kind $kind\n"); exit(2); }
    $opts = $all[$kind];
    $qs = [];
    foreach ($log as $line) {
        $w = explode(' ', $line);
        if (array_shift($w) === ($kind === 'phrase' ? 'phrase' : 'and')) $qs[] = $w;
    }
    $qs = array_slice($qs, 0, (int)($args['queries'] ?? 2000));
    $best = $matches = [];
    foreach ($ixs as $file => $ix) {   /* once: the lists checked, the matches counted */
        $m = 0;
        foreach ($qs as $q) $m += count($ix->search($q, $opts));
        $matches[$file] = $m;
        if ($m !== reset($matches)) { echo "$file $kind: $m matches, the first file's ", reset($matches), "\n"; $bad++; }
    }
    for ($round = 0; $round < $rounds; $round++) {
        foreach ($ixs as $file => $ix) {
            $t = hrtime(true);
            for ($r = 0; $r < $reps; $r++) foreach ($qs as $q) $ix->search($q, $opts);
            $us = (hrtime(true) - $t) / 1e3 / ($reps * count($qs));
            $best[$file] = min($best[$file] ?? INF, $us);
        }
    }
    $first = reset($best);
    foreach ($best as $file => $us) {
        printf("%-6s %-28s %9.2f us a query  %5.2fx the first  (%d queries x %d, best of %d rounds, %d matches a pass)\n",
            $kind, basename($file), $us, $first / $us, count($qs), $reps, $rounds, $matches[$file]);
    }
}
exit($bad ? 1 : 0);
