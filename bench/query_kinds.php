<?php
/* One process, one query a call, on the host path: the microseconds a query of one kind takes
 * over an index file, for comparing builds and file versions on one core (bench/workers.php runs
 * many processes). The log's first --queries queries of the kind are asked once (a version 2
 * list is checked at its first use), then --reps times, timed. Not a test.
 *
 *   php bench/query_kinds.php INDEX.gpix QUERIES and|phrase|and10|or10 [--reps=10] [--queries=2000]
 */
$args = [];
$pos = [];
foreach (array_slice($_SERVER['argv'], 1) as $a) {
    if (preg_match('/^--([a-z]+)=(.*)$/', $a, $m)) $args[$m[1]] = $m[2];
    else $pos[] = $a;
}
if (count($pos) < 3) {
    fwrite(STDERR, "usage: php bench/query_kinds.php INDEX.gpix QUERIES and|phrase|and10|or10 [--reps=10] [--queries=2000]\n");
    exit(2);
}
[$file, $qfile, $kind] = $pos;
$reps = (int)($args['reps'] ?? 10);
$opts = ['and' => ['op' => GPUPOST_AND], 'phrase' => ['op' => GPUPOST_PHRASE],
         'and10' => ['op' => GPUPOST_AND, 'limit' => 10], 'or10' => ['op' => GPUPOST_OR, 'limit' => 10]][$kind];
$ix = GpuPost\Index::open($file, ['device' => 'host']);
$qs = [];
foreach (file($qfile, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
    $w = explode(' ', $line);
    if (array_shift($w) === ($kind === 'phrase' ? 'phrase' : 'and')) $qs[] = $w;
}
$qs = array_slice($qs, 0, (int)($args['queries'] ?? 2000));
$matches = 0;
foreach ($qs as $q) $matches += count($ix->search($q, $opts));
$t = hrtime(true);
for ($r = 0; $r < $reps; $r++) foreach ($qs as $q) $ix->search($q, $opts);
printf("%s %s: %.2f us a query (%d queries x %d, %d matches a pass)\n", basename($file), $kind,
    (hrtime(true) - $t) / 1e3 / ($reps * count($qs)), count($qs), $reps, $matches);
