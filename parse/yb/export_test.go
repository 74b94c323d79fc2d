package yb

// JoinConfigText is joinConfigText, for the external tests.
var JoinConfigText = joinConfigText
