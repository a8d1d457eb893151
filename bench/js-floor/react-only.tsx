// The smallest page React can hydrate: one button with state. Built by bench/js-floor.ts
// with the client build's settings, to measure the floor under every page's JavaScript.
import { useState } from "react";
import { hydrateRoot } from "react-dom/client";

function Counter() {
  const [clicks, setClicks] = useState(0);
  return (
    <button type="button" onClick={() => setClicks(clicks + 1)}>
      {clicks}
    </button>
  );
}

const root = document.getElementById("root");
if (root) hydrateRoot(root, <Counter />);
