--TEST--
gpupost.device=host: no OpenCL at all, every call on the host, gpu_info() says why
--EXTENSIONS--
gpupost
--INI--
gpupost.device=host
gpupost.min_device_values=0
--FILE--
<?php
$b = gpu_encode_postings([1, 2, 3]);
var_dump(gpu_decode_postings($b));
$i = gpu_info();
var_dump($i['backend'], $i['last_backend'], $i['device'], $i['kernels_built'], $i['reason']);
var_dump(gpu_prefix_sum([1, 2, 3]), gpu_info()['last_backend']);
?>
--EXPECT--
array(3) {
  [0]=>
  int(1)
  [1]=>
  int(2)
  [2]=>
  int(3)
}
string(4) "host"
string(4) "host"
NULL
bool(false)
string(39) "gpupost.device=host: OpenCL is not used"
array(3) {
  [0]=>
  int(1)
  [1]=>
  int(3)
  [2]=>
  int(6)
}
string(4) "host"
