if (typeof require === 'function') {  // node: load the engine as scripts, as the suite does
  const fs = require('fs'), vm = require('vm');
  for (const f of ENGINE_FILES) vm.runInThisContext(fs.readFileSync(f, 'utf8'), { filename: f });
}
