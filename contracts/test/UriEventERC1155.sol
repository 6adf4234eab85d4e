// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC1155} from "@openzeppelin/contracts/token/ERC1155/ERC1155.sol";

/// @title ERC-1155 that announces a new URI of an id with the standard's `URI` event.
contract UriEventERC1155 is ERC1155 {
    constructor(string memory uri_) ERC1155(uri_) {}

    function mint(address to, uint256 id, uint256 amount) external {
        _mint(to, id, amount, "");
    }

    /// @notice Replaces the uri template and announces it for `id`.
    function setURIFor(string calldata uri_, uint256 id) external {
        _setURI(uri_);
        emit URI(uri_, id);
    }
}
