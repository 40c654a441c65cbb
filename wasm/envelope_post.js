// Appended to the module by emcc (--post-js, wasm/CMakeLists.txt): every function bound in
// bind.cpp may be called with arguments missing or extra. embind throws a BindingError for a
// call whose argument count differs from the C++ signature's, which breaks the facade's
// contract (errors come back as values, nothing throws); each function is wrapped to pass
// exactly its count: a missing argument as undefined (which the C++ side answers with an
// error value, or takes as "not given" where the argument is optional, importHf's name),
// an extra one dropped, as a JS function would.
// The wrapping happens once the runtime is up (embind has registered the functions then),
// before the factory's promise resolves: the promise returned is this one.
Module['ready'] = Module['ready'].then(function (module) {
  Object.keys(module).forEach(function (name) {
    var raw = module[name];
    // embind's functions carry their argument count; nothing else on the module does.
    if (typeof raw !== 'function' || typeof raw['argCount'] !== 'number' || raw['overloadTable']) return;
    var count = raw['argCount'];
    var wrapped = function () {
      var args = new Array(count);
      for (var i = 0; i < count; i++) args[i] = arguments[i];
      return raw.apply(this, args);
    };
    wrapped['argCount'] = count;
    module[name] = wrapped;
  });
  return module;
});
