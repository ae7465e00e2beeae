import { useMutation } from "@tanstack/react-query";
import { api, type OkResponse } from "./api";

/** A mutation that POSTs its input to `path`, answered with the API's plain success ({ ok, message }). */
export function usePostMutation<I>(path: string) {
  return useMutation({ mutationFn: (input: I) => api.post<OkResponse>(path, input) });
}
