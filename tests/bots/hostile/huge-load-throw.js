'use strict';
// Throws a 1 MiB message while loading.
throw new Error('L'.repeat(1 << 20));
