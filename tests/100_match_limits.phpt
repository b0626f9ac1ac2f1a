--TEST--
Query trees at their limits: long AND/OR chains and runs parsed in linear memory within memory_limit, trees past gpupost.max_result_bytes refused before their cursors are taken, NEAR groups of any number of phrases, empty indexes of documents, and the documents' and weights' bad input refused
--EXTENSIONS--
gpupost
--INI--
memory_limit=32M
--FILE--
<?php
$ix = GpuPost\Index::fromDocuments(['free beer', 'gnu', str_repeat('free software ', 60), 'software free gnu']);
/* 20,000 phrases a chain: one node of them, not one an operator */
$before = memory_get_peak_usage();
var_dump(count($ix->search(str_repeat('free OR ', 20000) . 'free')), count($ix->search(str_repeat('free ', 20000))),
         count($ix->search('"' . str_repeat('free ', 20000) . '"')), $ix->count(str_repeat('gnu AND ', 5000) . 'software'));
/* NEAR groups of 80 phrases: free and software alternate in doc 2 */
var_dump($ix->search('NEAR(' . str_repeat('free software ', 40) . ', 3)'), $ix->search('NEAR(' . str_repeat('free gnu ', 40) . ', 0)'));
/* a tree of 100,000 leaves needs its cursors: refused under a low cap */
ini_set('gpupost.max_result_bytes', '16M');
try {
    $ix->search(array_merge(['or'], array_fill(0, 100000, 'free')), ['tree' => true]);
    echo "accepted\n";
} catch (GpuPost\Exception $e) {
    echo preg_replace('/\d+/', 'N', $e->getMessage()), "\n";
}
ini_restore('gpupost.max_result_bytes');
/* indexes of documents with no tokens at all answer nothing, positions or not */
var_dump(GpuPost\Index::fromDocuments([], ['columns' => ['title', 'body']])->search('title : "a b" OR ^c OR NEAR(d e)'),
         GpuPost\Index::fromDocuments([0 => ['title' => '']])->search('"a b"'));
foreach ([fn() => GpuPost\Index::fromDocuments([134217727 => 'hello']),
          fn() => GpuPost\Index::fromDocuments([['title' => 'a'], ['title' => 'b', 'body' => 'x']]),
          fn() => GpuPost\Index::fromDocuments([0 => ['title' => 'a']], ['columns' => ['title', 'TITLE']]),
          fn() => GpuPost\Index::fromDocuments([0 => ['title' => 'a', 'body' => 'b']])->search('a', ['limit' => 1, 'weights' => ['title' => 1e308]]),
          fn() => GpuPost\Index::fromDocuments([0 => ['title' => 'a', 'body' => 'b']])->search('a', ['limit' => 1, 'weights' => ['body' => -1]]),
          fn() => GpuPost\Index::fromDocuments([0 => ['title' => 'a', 'body' => 'b']])->search('a', ['limit' => 1, 'weights' => ['tags' => 2]]),
          fn() => $ix->search('a', ['limit' => 1, 'weights' => [5 => 2]])] as $f) {
    try {
        $f();
        echo "accepted\n";
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
int(3)
int(3)
int(0)
int(1)
array(2) {
  [0]=>
  int(2)
  [1]=>
  int(3)
}
array(1) {
  [0]=>
  int(3)
}
a query tree's cursors would need N bytes, more than gpupost.max_result_bytes (N)
array(0) {
}
array(0) {
}
GpuPost\Index::fromDocuments(): Argument #1 ($docs) must key docs by ints from 0 to 2^27 - 2 (the docs MOD9 postings hold)
GpuPost\Index::fromDocuments(): Argument #1 ($docs) doc 1 has a text under 'body', not one of the columns
GpuPost\Index::fromDocuments(): Argument #2 ($options) columns 0 and 1 have the same name
GpuPost\Index::search(): Argument #2 ($options) option 'weights' must give each column a number from 0 to 1e6
GpuPost\Index::search(): Argument #2 ($options) option 'weights' must give each column a number from 0 to 1e6
GpuPost\Index::search(): Argument #2 ($options) option 'weights' names a column the index lacks: 'tags'
GpuPost\Index::search(): Argument #2 ($options) option 'weights' numbers a column the index lacks: 5
