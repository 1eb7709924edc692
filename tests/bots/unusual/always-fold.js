// Legal: folds even when it could check.
module.exports = function act() { return 'fold'; };
