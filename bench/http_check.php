<?php
/* bench/http.sh's answer check, before anything is timed: every query id the load will use,
 * fetched through nginx from every engine (q.php?...&check=1), compared. Exits 1 naming the
 * engine and query of each mismatch (the first 20), else prints what was compared, one line a kind.
 *
 *   php bench/http_check.php BASE_URL ENGINES KINDS N SERVER_ROUTED
 *
 * ENGINES, KINDS: comma lists (q.php's e= and k=); ids 0 .. N-1; SERVER_ROUTED 1: the server row's
 * every query must say it was answered by gpupostd. Rules:
 *   and:  the count and the sum of docs equal across every engine;
 *   or10: gpupost server == gpupost worker exactly (docs and scores); FTS5's 10 best == gpupost's
 *         (gpupost's BM25 is FTS5's bm25(): scores equal within 1e-9 relative, docs equal but
 *         where scores tie); Sphinx ranks by its own formula, so its match count (total_found)
 *         is compared, and its top 10's overlap with gpupost's only reported. */
$argv = $_SERVER['argv'];
if (count($argv) !== 6) {
    fwrite(STDERR, "usage: php bench/http_check.php BASE_URL ENGINES KINDS N SERVER_ROUTED\n");
    exit(2);
}
[, $base, $engines, $kinds, $n, $routed] = $argv;
$engines = explode(',', $engines);
$n = (int)$n;
$bad = [];
$ctx = stream_context_create(['http' => ['ignore_errors' => true, 'timeout' => 60]]);

function fetch(string $base, string $e, string $k, int $id, $ctx, array &$bad): ?array
{
    $body = @file_get_contents("$base/q.php?e=$e&k=$k&id=$id&check=1", false, $ctx);
    $status = $http_response_header[0] ?? 'no response';
    $r = $body === false ? null : json_decode($body, true);
    if (!str_contains($status, ' 200') || !is_array($r)) {
        $bad[] = "$k id=$id: $e: $status: " . substr((string)$body, 0, 300);
        return null;
    }
    return $r;
}

/* equal within 1e-9 relative: the same BM25 summed in another order */
function close_to(float $a, float $b): bool
{
    return abs($a - $b) <= 1e-9 * max(1.0, abs($a), abs($b));
}

/* FTS5's 10 best against gpupost's: scores equal place by place; docs equal where they differ
 * only among equal scores (the docs above the 10th score the same set, each place's score alike) */
function same_top(array $g, array $f, bool &$tied): bool
{
    $tied = false;
    if (count($g['docs']) !== count($f['docs'])) return false;
    if ($g['docs'] === $f['docs']) return true;
    foreach ($g['scores'] as $i => $s) {
        if (!close_to($s, $f['scores'][$i])) return false;
    }
    $last = end($g['scores']);
    $above = fn($r) => array_values(array_filter($r['docs'], fn($d, $i) => !close_to($r['scores'][$i], $last), ARRAY_FILTER_USE_BOTH));
    $a = $above($g);
    $b = $above($f);
    sort($a);
    sort($b);
    return $tied = $a === $b;
}

$gp = array_values(array_intersect(['server', 'worker'], $engines));
$ref = $gp[0] ?? $engines[0];
foreach (explode(',', $kinds) as $k) {
    $stat = ['matched' => 0, 'matches' => 0, 'fts_same' => 0, 'fts_tied' => 0, 'sph_same' => 0, 'overlap' => 0, 'by_server' => 0];
    for ($id = 0; $id < $n; $id++) {
        $r = [];
        foreach ($engines as $e) $r[$e] = fetch($base, $e, $k, $id, $ctx, $bad);
        if (in_array(null, $r, true)) continue;
        $q = '';
        if (isset($r['server'])) {
            if ($r['server']['by'] === 'server') $stat['by_server']++;
            elseif ($routed === '1') $bad[] = "$k id=$id: server: answered by {$r['server']['by']}, not by gpupostd";
        }
        if (isset($r['worker']) && $r['worker']['by'] !== 'worker') $bad[] = "$k id=$id: worker: answered by {$r['worker']['by']}";
        foreach ($engines as $e) {
            if ($e === $ref) continue;
            $a = $r[$ref];
            $b = $r[$e];
            $why = null;
            if ($k === 'and') {
                if ($a['n'] !== $b['n'] || $a['sum'] !== $b['sum']) $why = "count $b[n] doc sum $b[sum], $ref: count $a[n] doc sum $a[sum]";
            } elseif ($e === 'worker' || $e === 'server') {
                if ($a['docs'] !== $b['docs'] || $a['scores'] !== $b['scores'] || $a['total'] !== $b['total']) {
                    $why = 'top 10 ' . json_encode([$b['docs'], $b['scores']]) . ", $ref: " . json_encode([$a['docs'], $a['scores']]);
                }
            } elseif ($e === 'fts5') {
                $tied = false;
                if ($a['total'] !== $b['total']) $why = "match count $b[total], $ref: $a[total]";
                elseif (!same_top($a, $b, $tied)) $why = 'top 10 ' . json_encode([$b['docs'], $b['scores']]) . ", $ref: " . json_encode([$a['docs'], $a['scores']]);
                else $stat[$tied ? 'fts_tied' : 'fts_same']++;
            } else {   /* sphinx: its own BM25 */
                if ($a['total'] !== $b['total']) $why = "match count $b[total], $ref: $a[total]";
                else $stat['sph_same']++;
                $stat['overlap'] += count(array_intersect($a['docs'], $b['docs'])) / max(1, count($a['docs']));
            }
            if ($why !== null) $bad[] = "$k id=$id: $e differs from $ref: $why";
        }
        $x = $r[$ref];
        $m = $k === 'and' ? $x['n'] : $x['total'];
        $stat['matched'] += $m > 0 ? 1 : 0;
        $stat['matches'] += $m;
    }
    if ($bad) break;
    $line = sprintf("- %s: %d queries (ids 0-%d), %d with matches, %d matches in all; ", $k, $n, $n - 1, $stat['matched'], $stat['matches']);
    $others = array_diff($engines, [$ref]);
    if ($k === 'and') {
        $line .= "count and doc sum equal for " . implode(', ', $engines) . " on every query";
    } else {
        $parts = [];
        foreach ($others as $e) {
            $parts[] = match ($e) {
                'worker', 'server' => "$e == $ref exactly (docs, scores, match count)",
                'fts5' => "FTS5's 10 best == $ref's on every query ($stat[fts_tied] of them equal up to the order of tied scores), match counts equal",
                'sphinx' => sprintf("Sphinx's match count (total_found) == %s's on every query; Sphinx's top 10 (its own BM25 formula, not compared) shares %.0f%% of %s's docs", $ref, 100 * $stat['overlap'] / max(1, $n), $ref),
                default => $e,
            };
        }
        $line .= implode('; ', $parts);
    }
    if (in_array('server', $engines, true)) $line .= "; gpupostd answered $stat[by_server] of the server row's queries";
    echo $line, "\n";
}
if ($bad) {
    fwrite(STDERR, "http_check: " . count($bad) . " mismatches or failed responses:\n  " . implode("\n  ", array_slice($bad, 0, 20)) . "\n");
    exit(1);
}
