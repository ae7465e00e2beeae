import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router/dom";
import { queryClient } from "./app/query-client";
import { createAppRouter } from "./app/router";
import { DeferredToaster, preloadToastsWhenIdle } from "./lib/toast";
import "./index.css";

const router = createAppRouter();

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
        <DeferredToaster theme="dark" position="top-center" richColors closeButton duration={4000} />
      </QueryClientProvider>
    </StrictMode>,
  );
  preloadToastsWhenIdle();
}
