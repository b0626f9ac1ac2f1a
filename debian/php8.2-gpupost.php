mod debian/gpupost.ini
