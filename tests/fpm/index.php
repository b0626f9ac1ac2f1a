<?php
/* Served by scripts/fpm-load.sh: a persistent GpuPost\Index, opened once per worker and reused by
 * its later requests, answers a fixed set of query batches checked against the answers the CLI
 * computed on the host (ix-ref.json). Each worker notes the request in which it opened the file
 * (opens.log). The response has a fixed length: "OK reused|opened <pid> <resident bytes>". */
$ix = GpuPost\Index::open(__DIR__ . '/ix.gpix', ['persistent' => true]);
$ref = json_decode((string)file_get_contents(__DIR__ . '/ix-ref.json'), true);
$ok = true;
foreach ($ref as $r) {
    $ok = $ok && $ix->searchBatch($r['queries'], ['op' => $r['op']]) === $r['answers'];
    $ok = $ok && $ix->search($r['queries'][0], ['op' => $r['op']]) === $r['answers'][0];
}
$info = $ix->info();
if (!$info['reused']) {
    file_put_contents(__DIR__ . '/opens.log', getmypid() . "\n", FILE_APPEND | LOCK_EX);
}
printf("%s %s %08d %012d\n", $ok ? 'OK' : 'WRONG', $info['reused'] ? 'reused' : 'opened', getmypid(), gpu_info()['resident']);
