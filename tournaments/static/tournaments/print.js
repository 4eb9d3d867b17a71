// The results page's Print button (no inline handler: the content security policy refuses them).
document.getElementById("print").addEventListener("click", () => window.print());
