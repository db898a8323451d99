// upref's scoreboard page: follows the live pictures of /events (or a seat's own stream) and
// replaces the whole board with each one, so a new game never leaves a stale page. The browser's
// EventSource reconnects by itself when the server restarts; the line at the top says so.
"use strict";
(function () {
  const board = document.getElementById("board");
  const link = document.getElementById("link");
  const url = board.getAttribute("data-events");
  // the page's words in its language, from the page itself (the server says them)
  const said = {
    live: link.getAttribute("data-live") || "live",
    lost: link.getAttribute("data-lost") || "reconnecting to the referee…",
    gone: link.getAttribute("data-gone") || "This link is no longer valid.",
  };
  let version = "";
  function status(text, cls) {
    link.textContent = text;
    link.className = "link " + cls;
  }
  function connect() {
    const source = new EventSource(url);
    source.addEventListener("open", function () { status(said.live, "live"); });
    source.addEventListener("board", function (event) {
      const picture = JSON.parse(event.data);
      version = picture.version;
      document.title = picture.title;
      board.innerHTML = picture.html;  // escaped by the server's renderer
      board.setAttribute("data-version", version);
      status(said.live, "live");
    });
    source.addEventListener("error", function () {
      status(said.lost, "lost");
      if (source.readyState === EventSource.CLOSED) {
        // Refused outright: a seat's link from an earlier session (its token is gone) must not
        // keep showing that session's secrets as if they were current.
        fetch(window.location.href, { method: "HEAD", cache: "no-store" }).then(function (r) {
          if (r.status === 404) {
            board.textContent = "";
            board.removeAttribute("data-version");
            status(said.gone, "lost gone");
            return;
          }
          setTimeout(connect, 1000);
        }, function () { setTimeout(connect, 1000); });
      }
    });
  }
  connect();
})();
