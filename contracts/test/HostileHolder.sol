// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IERC721Receiver} from "@openzeppelin/contracts/token/ERC721/IERC721Receiver.sol";
import {INFTConverter} from "../interfaces/INFTConverter.sol";

/// @title A contract wallet that converts its tokens and misbehaves when it receives the counterpart.
/// @dev Tests the converter against re-entry and against recipients that refuse tokens.
contract HostileHolder is IERC721Receiver {
    enum Mode {
        Accept,
        Refuse,
        ConvertBackInside,
        ConvertAnotherInside
    }

    INFTConverter public immutable converter;
    IERC721 public immutable alice;
    IERC721 public immutable bob;
    Mode public mode;
    uint256 public otherAliceId;

    constructor(INFTConverter converter_) {
        converter = converter_;
        alice = converter_.alice();
        bob = converter_.bob();
    }

    /// @notice Chooses how the next received token is answered.
    function setMode(Mode mode_, uint256 otherAliceId_) external {
        mode = mode_;
        otherAliceId = otherAliceId_;
    }

    /// @notice Converts `aliceId` by sending it to the converter, in one transaction.
    function convert(uint256 aliceId) external {
        alice.safeTransferFrom(address(this), address(converter), aliceId);
    }

    /// @notice Lets the converter pull Alice tokens (approval path).
    function approveConverter() external {
        alice.setApprovalForAll(address(converter), true);
    }

    /// @notice Answers according to `mode`; the re-entering modes call the converter from inside the callback.
    function onERC721Received(address, address, uint256 tokenId, bytes calldata) external returns (bytes4) {
        if (mode == Mode.Refuse) return 0xdeadbeef;
        if (msg.sender == address(bob)) {
            if (mode == Mode.ConvertBackInside) bob.safeTransferFrom(address(this), address(converter), tokenId);
            if (mode == Mode.ConvertAnotherInside) converter.convertFromAliceToBob(otherAliceId);
        }
        return IERC721Receiver.onERC721Received.selector;
    }
}
