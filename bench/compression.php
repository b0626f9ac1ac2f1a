<?php
/* Compression report (not a test): bits per docID and decode speed of MOD9, S9, QS, VBYTE and
 * GROUP_VARINT on (1) the demo corpus's docID lists (license texts on every Debian machine),
 * (2) its positions as a schema-independent index (each term's token offsets across the corpus,
 * the book's chapter 6 layout) and (3) a synthetic Zipf-distributed index of --docs documents
 * (default 1M). Every list is encoded by
 * gpu_encode_postings and decoded back (checked equal) on the host path and on the device.
 * MOD9 stores doc+1 then the d-gaps (what Yioop's postings start with); S9, VBYTE and GROUP_VARINT
 * use delta rule 2 (strictly increasing); QS uses c = 1. "whole blobs" counts every byte; "payload" leaves out the
 * containers' headers (12 bytes, QS 16: magic, n, the rule or last), which an index keeps in its
 * term dictionary anyway (Yioop's holds each term's offset, length and count); MOD9 has none.
 *
 *   php -d extension=modules/gpupost.so bench/compression.php [--docs=1000000] [--terms=20000]
 */
$opts = getopt('', ['docs:', 'terms:', 'skip-corpus']);
$ndocs = (int)($opts['docs'] ?? 1000000);
$nterms = (int)($opts['terms'] ?? 20000);
$info = gpu_info();
printf("# gpupost compression report, %s; device: %s\n", date('Y-m-d'),
    $info['device'] ? "{$info['device']['name']} ({$info['platform']['name']})" : 'none');

/* The corpus's docID lists, and its token offsets per term across the corpus (positions of a
 * schema-independent index). */
function corpus_lists(): array
{
    $files = array_merge(glob('/usr/share/common-licenses/*') ?: [], glob('/usr/share/doc/*/copyright') ?: []);
    $lists = $positions = [];
    $offset = 0;
    foreach (array_values(array_filter($files, 'is_file')) as $doc => $path) {
        $tokens = preg_split('/[^a-z0-9]+/', strtolower((string)file_get_contents($path)), -1, PREG_SPLIT_NO_EMPTY);
        foreach ($tokens as $i => $w) $positions[$w][] = $offset + $i;
        $offset += count($tokens);
        foreach (array_unique($tokens) as $w) {
            $lists[$w][] = $doc;
        }
    }
    return [array_values($lists), array_values($positions)];
}

/* Zipf: the k-th most frequent term appears in about N / (k * H) documents, docIDs spread with
 * geometric gaps. */
function zipf_lists(int $ndocs, int $nterms): array
{
    mt_srand(2024);
    $h = 0.0;
    for ($k = 1; $k <= $nterms; $k++) $h += 1.0 / $k;
    $lists = [];
    for ($k = 1; $k <= $nterms; $k++) {
        $df = max(1, min($ndocs, (int)round(0.3 * $ndocs * 10 / ($k * $h))));
        $mean = $ndocs / $df;
        $list = [];
        $x = -1;
        while (true) {
            $u = mt_rand(1, mt_getrandmax()) / mt_getrandmax();
            $x += 1 + (int)floor(-log($u) * ($mean - 1));
            if ($x >= $ndocs) break;
            $list[] = $x;
        }
        if ($list) $lists[] = $list;
    }
    return $lists;
}

function measure(string $name, array $lists, string $what = 'docID'): void
{
    $n = array_sum(array_map('count', $lists));
    printf("\n## %s: %d lists, %d %ss\n\n", $name, count($lists), $n, $what);
    printf("| format | bits/%s, whole blobs | bits/%s, payload | host decode M %ss/s | device decode M %ss/s |\n|---|---:|---:|---:|---:|\n",
        $what, $what, $what, $what);
    $formats = [
        'MOD9' => [GPUPOST_MOD9, fn($l) => gpu_encode_postings(mod9_gaps($l)), 0],
        'S9' => [GPUPOST_S9, fn($l) => gpu_encode_postings($l, GPUPOST_S9, GPUPOST_VALUES, ['delta' => 2]), 12],
        'QS' => [GPUPOST_QS, fn($l) => gpu_encode_postings($l, GPUPOST_QS), 16],
        'VBYTE' => [GPUPOST_VBYTE, fn($l) => gpu_encode_postings($l, GPUPOST_VBYTE, GPUPOST_VALUES, ['delta' => 2]), 12],
        'GROUP_VARINT' => [GPUPOST_GROUP_VARINT, fn($l) => gpu_encode_postings($l, GPUPOST_GROUP_VARINT, GPUPOST_VALUES, ['delta' => 2]), 12],
    ];
    foreach ($formats as $fname => [$format, $enc, $header]) {
        $blobs = array_map($enc, $lists);
        $bits = 8 * array_sum(array_map('strlen', $blobs));
        $payload = $bits - 8 * $header * count($blobs);
        $speeds = [];
        foreach (['host' => PHP_INT_MAX, 'device' => 0] as $path => $t) {
            if ($path === 'device' && gpu_info()['backend'] !== 'opencl') { $speeds[] = '-'; continue; }
            ini_set('gpupost.min_device_values', (string)$t);
            $best = INF;
            for ($r = 0; $r < 3; $r++) {
                $t0 = hrtime(true);
                $out = gpu_decode_postings_batch($blobs, $format);
                $best = min($best, (hrtime(true) - $t0) / 1e9);
            }
            $ok = $format === GPUPOST_MOD9 ? array_map('mod9_undo', $out) === $lists : $out === $lists;
            if (!$ok) { fwrite(STDERR, "$fname $path: decoded lists differ\n"); exit(1); }
            $speeds[] = sprintf('%.1f', $n / $best / 1e6);
            unset($out);
        }
        printf("| %s | %.2f | %.2f | %s | %s |\n", $fname, $bits / $n, $payload / $n, $speeds[0], $speeds[1]);
    }
    ini_restore('gpupost.min_device_values');
}

function mod9_gaps(array $l): array
{
    $g = [];
    $prev = -1;
    foreach ($l as $x) { $g[] = $x - $prev; $prev = $x; }
    return $g;
}

function mod9_undo(array $g): array
{
    $x = [];
    $prev = -1;
    foreach ($g as $d) { $prev += $d; $x[] = $prev; }
    return $x;
}

if (!isset($opts['skip-corpus'])) {
    [$corpus, $positions] = corpus_lists();
    measure('demo corpus (/usr/share/common-licenses, /usr/share/doc/*/copyright), all lists', $corpus);
    measure('demo corpus, positions (each term\'s token offsets across the corpus), lists of 32 or more', array_values(array_filter($positions, fn($l) => count($l) >= 32)), 'position');
    unset($positions);
    /* most of the corpus's lists hold one to a few docIDs, where any container's word padding
     * dominates; the lists an engine spends its decode time on are the long ones */
    measure('demo corpus, lists of 32 docIDs or more', array_values(array_filter($corpus, fn($l) => count($l) >= 32)));
}
measure("Zipf index, $ndocs documents, $nterms terms", zipf_lists($ndocs, $nterms));
echo "\nFor scale, the Parallel-QS thesis on GOV2 docIDs: QS 3.13, Rice 3.87, PForDelta 7.63 bits/int.\n";
